package apmsim

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"
)

// Error codes of the spec's error table (part 7), plus the ones the sim
// adds for cases the spec does not cover.
const (
	codeBadRequest       = "BAD_REQUEST"
	codeUnauthorized     = "UNAUTHORIZED"
	codeForbidden        = "FORBIDDEN"
	codeNotFound         = "NOT_FOUND"
	codeConflict         = "CONFLICT"
	codeMethodNotAllowed = "METHOD_NOT_ALLOWED"     // beyond the spec
	codeUnsupportedMedia = "UNSUPPORTED_MEDIA_TYPE" // beyond the spec
	codeTooLarge         = "PAYLOAD_TOO_LARGE"      // beyond the spec
	codeInternal         = "INTERNAL_ERROR"         // the spec does not name the 500 code
)

// maxBodyBytes bounds request bodies; management requests are tiny.
const maxBodyBytes = 1 << 20

// apiError is an error that maps to one HTTP error response. Handlers and
// update functions return it; writeErr renders it.
type apiError struct {
	status int
	code   string
	msg    string
}

func (e *apiError) Error() string { return e.msg }

func badRequest(format string, args ...any) *apiError {
	return &apiError{http.StatusBadRequest, codeBadRequest, fmt.Sprintf(format, args...)}
}

func notFound(format string, args ...any) *apiError {
	return &apiError{http.StatusNotFound, codeNotFound, fmt.Sprintf(format, args...)}
}

func conflict(format string, args ...any) *apiError {
	return &apiError{http.StatusConflict, codeConflict, fmt.Sprintf(format, args...)}
}

// errorBody is the spec's error body: a human-readable message and a code.
type errorBody struct {
	Error string `json:"error"`
	Code  string `json:"code"`
}

// writeJSON writes v as the JSON response body with the given status.
// It marshals first so that an encoding failure can still become a 500.
func writeJSON(w http.ResponseWriter, status int, v any) {
	data, err := json.Marshal(v)
	if err != nil {
		status = http.StatusInternalServerError
		data, _ = json.Marshal(errorBody{"internal error: " + err.Error(), codeInternal})
	}
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write(data)
}

// writeError writes the spec's error body.
func writeError(w http.ResponseWriter, status int, code, msg string) {
	writeJSON(w, status, errorBody{Error: msg, Code: code})
}

// writeErr renders err: an *apiError as itself, anything else as a 500.
func writeErr(w http.ResponseWriter, err error) {
	var ae *apiError
	if errors.As(err, &ae) {
		writeError(w, ae.status, ae.code, ae.msg)
		return
	}
	writeError(w, http.StatusInternalServerError, codeInternal, "internal error: "+err.Error())
}

// actionOK writes the spec's success ActionResult.
func actionOK(w http.ResponseWriter) {
	writeJSON(w, http.StatusOK, actionResult{Result: "Y"})
}

type actionResult struct {
	Result string `json:"actionResult"`
}

// decodeBody decodes the JSON object in the request body into v. The spec
// requires Content-Type application/json on bodies, so anything else
// (including no Content-Type) is 415. Unknown fields are ignored: the sim
// is lenient in what it accepts.
func decodeBody(r *http.Request, v any) error {
	if err := checkJSONContentType(r.Header.Get("Content-Type")); err != nil {
		return err
	}
	data, err := io.ReadAll(http.MaxBytesReader(nil, r.Body, maxBodyBytes))
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			return &apiError{http.StatusRequestEntityTooLarge, codeTooLarge,
				fmt.Sprintf("request body exceeds %d bytes", maxBodyBytes)}
		}
		return badRequest("invalid JSON body: %v", err)
	}
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		return badRequest("invalid JSON body: body is empty")
	}
	if data[0] != '{' {
		return badRequest("invalid JSON body: expected a JSON object")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(v); err != nil {
		return badRequest("invalid JSON body: %s", describeJSONError(err))
	}
	if dec.InputOffset() != int64(len(data)) {
		return badRequest("invalid JSON body: unexpected data after the JSON object")
	}
	return nil
}

// describeJSONError rewrites type errors without Go type names, which mean
// nothing to an API client.
func describeJSONError(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Field != "" {
		return fmt.Sprintf("%s must be %s, not %s", te.Field, jsonKind(te.Type.Kind().String()), te.Value)
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return "unexpected end of JSON input"
	}
	return err.Error()
}

// jsonKind names a Go kind the way a JSON user thinks of it.
func jsonKind(goKind string) string {
	switch {
	case goKind == "string":
		return "a string"
	case goKind == "bool":
		return "a boolean"
	case strings.HasPrefix(goKind, "int"), strings.HasPrefix(goKind, "uint"), strings.HasPrefix(goKind, "float"):
		return "a number"
	case goKind == "slice" || goKind == "array":
		return "an array"
	default:
		return "an object"
	}
}

func checkJSONContentType(ct string) error {
	unsupported := &apiError{http.StatusUnsupportedMediaType, codeUnsupportedMedia,
		"Content-Type must be application/json"}
	if ct == "" {
		return unsupported
	}
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil || (mt != "application/json" && !strings.HasSuffix(mt, "+json")) {
		return unsupported
	}
	return nil
}

// serveList answers a list endpoint: every entity in the map that pick returns, sorted
// by key, rendered by view, under the body's wrapper key.
func serveList[T, J any](s *Sim, w http.ResponseWriter, wrapper string, pick func(*world) map[string]*T, key func(*T) string, view func(*T) J) {
	var out []J
	s.read(func(wd *world) {
		items := sortedByID(pick(wd), key)
		out = make([]J, 0, len(items))
		for _, it := range items {
			out = append(out, view(it))
		}
	})
	writeJSON(w, http.StatusOK, map[string]any{wrapper: out})
}

// answer ends a write handler: the error as its response, or actionResult Y.
func answer(w http.ResponseWriter, err error) {
	if err != nil {
		writeErr(w, err)
		return
	}
	actionOK(w)
}
