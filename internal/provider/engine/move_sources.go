package engine

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/resource"
)

// The sources a moved block may name, read from the state their providers keep (their
// schemas: Mastercard/terraform-provider-restapi restapi/resource_api_object.go,
// magodo/terraform-provider-restful internal/provider/resource.go).
const (
	restapiObject   = "restapi_object"
	restfulResource = "restful_resource"
)

// restSource is what a generic REST provider's state says of one object.
type restSource struct {
	typeName string
	provider string
	path     string         // where the source reads the object
	body     map[string]any // what the source sends: the configured values
	read     map[string]any // what the source last read from the manager
}

// describe names the source and its path in errors.
func (s restSource) describe() string {
	return fmt.Sprintf("%s (%s) with the path %q", s.typeName, s.provider, s.path)
}

// lookup is the value of a top-level key of the body, or of what the source last read
// when the body does not hold it; a null is no value.
func (s restSource) lookup(key string) (any, bool) {
	if v, ok := s.body[key]; ok && v != nil {
		return v, true
	}
	v, ok := s.read[key]
	return v, ok && v != nil
}

// sourceOf reads the source of a move from its raw state.
func sourceOf(req resource.MoveStateRequest) (restSource, error) {
	if req.SourceTypeName != restapiObject && req.SourceTypeName != restfulResource {
		return restSource{}, fmt.Errorf("the state of %s (of the provider %s) cannot be taken over: the source of a moved block must be a %s "+
			"(Mastercard/restapi) or a %s (magodo/restful) that manages this object", req.SourceTypeName, req.SourceProviderAddress, restapiObject, restfulResource)
	}
	var raw map[string]json.RawMessage
	if req.SourceRawState == nil || json.Unmarshal(req.SourceRawState.JSON, &raw) != nil {
		return restSource{}, fmt.Errorf("the state of %s is not a JSON object", req.SourceTypeName)
	}
	src := restSource{typeName: req.SourceTypeName, provider: req.SourceProviderAddress}
	var err error
	if req.SourceTypeName == restapiObject {
		err = src.fromRestapi(raw)
	} else {
		err = src.fromRestful(raw)
	}
	if err != nil {
		return restSource{}, fmt.Errorf("the state of %s: %w", req.SourceTypeName, err)
	}
	return src, nil
}

// fromRestapi reads a restapi_object: it reads the object at read_path, by default
// path/{id}, with {id} replaced by its id; data is the JSON it sends, api_response the
// JSON it last read (api_data the same, flattened to strings).
func (s *restSource) fromRestapi(raw map[string]json.RawMessage) error {
	id, path, readPath := stringAttr(raw, "id"), stringAttr(raw, "path"), stringAttr(raw, "read_path")
	if id == "" || path == "" {
		return errors.New("it has no id or no path")
	}
	if readPath == "" {
		readPath = path + "/{id}"
	}
	s.path = strings.ReplaceAll(readPath, "{id}", id)
	var err error
	if s.body, err = jsonObject(stringAttr(raw, "data"), "data"); err != nil {
		return err
	}
	if s.read, err = jsonObject(stringAttr(raw, "api_response"), "api_response"); err != nil || len(s.read) == 0 {
		var flat map[string]string
		_ = json.Unmarshal(raw["api_data"], &flat)
		s.read = make(map[string]any, len(flat))
		for k, v := range flat {
			s.read[k] = v
		}
	}
	return nil
}

// fromRestful reads a restful_resource: its id is the path it reads the object at;
// body (dynamic) is the JSON it sends, output (dynamic) what it last read.
func (s *restSource) fromRestful(raw map[string]json.RawMessage) error {
	s.path = stringAttr(raw, "id")
	if s.path == "" {
		return errors.New("it has no id")
	}
	var err error
	if s.body, err = dynamicObject(raw["body"], "body"); err != nil {
		return err
	}
	s.read, err = dynamicObject(raw["output"], "output")
	return err
}

// stringAttr is a string attribute of a raw state, "" when absent or null.
func stringAttr(raw map[string]json.RawMessage, name string) string {
	var s string
	_ = json.Unmarshal(raw[name], &s)
	return s
}

// jsonObject decodes a JSON object held in a string attribute; "" is none.
func jsonObject(text, attr string) (map[string]any, error) {
	if text == "" {
		return nil, nil
	}
	var out map[string]any
	if err := decodeJSON([]byte(text), &out); err != nil {
		return nil, fmt.Errorf("its %s is not a JSON object: %w", attr, err)
	}
	return out, nil
}

// dynamicObject decodes a dynamic attribute, which a state holds as {"value": ..,
// "type": ..}, or a JSON string (restful's schema 0); null is none.
func dynamicObject(raw json.RawMessage, attr string) (map[string]any, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var text string
	if json.Unmarshal(raw, &text) == nil {
		return jsonObject(text, attr)
	}
	var typed struct {
		Value json.RawMessage `json:"value"`
		Type  json.RawMessage `json:"type"`
	}
	if decodeJSON(raw, &typed) == nil && len(typed.Type) > 0 {
		raw = typed.Value
	}
	var out map[string]any
	if err := decodeJSON(raw, &out); err != nil {
		return nil, fmt.Errorf("its %s is not an object: %w", attr, err)
	}
	return out, nil
}

// decodeJSON decodes keeping numbers as written, so that a port stays a whole number.
func decodeJSON(data []byte, v any) error {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	if err := d.Decode(v); err != nil {
		return fmt.Errorf("decoding JSON: %w", err)
	}
	return nil
}
