// Command actionschemas adds the provider's action schemas to the output of
// `providers schema -json`, for scripts/docs.sh: the CLIs that the docs are generated with
// (OpenTofu 1.12, Terraform 1.5) know no actions and leave them out, while tfplugindocs
// renders docs/actions/ from them. It reads that JSON on stdin and writes it to stdout
// with "action_schemas" set for the apm provider, taken from the provider itself in the
// form Terraform 1.14 reports them (a block of attributes, each with its type,
// description and whether it is required or optional).
//
//	tofu providers schema -json | go run ./internal/actionschemas > schema.json
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/apmplatform/terraform-provider-apm/internal/provider"
)

// providerAddress is where scripts/docs.sh has the CLI find the provider.
const providerAddress = "registry.terraform.io/hashicorp/apm"

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "actionschemas:", err)
		os.Exit(1)
	}
}

func run() error {
	var doc map[string]any
	if err := json.NewDecoder(os.Stdin).Decode(&doc); err != nil {
		return fmt.Errorf("reading the providers schema JSON: %w", err)
	}
	schemas, ok := doc["provider_schemas"].(map[string]any)
	if !ok {
		return errors.New("the input has no provider_schemas")
	}
	apm, ok := schemas[providerAddress].(map[string]any)
	if !ok {
		return fmt.Errorf("the input has no provider %s", providerAddress)
	}
	actions, err := actionSchemas(context.Background())
	if err != nil {
		return err
	}
	apm["action_schemas"] = actions
	enc := json.NewEncoder(os.Stdout)
	enc.SetEscapeHTML(false)
	return enc.Encode(doc)
}

// actionSchemas are the provider's action schemas in the JSON form of Terraform 1.14.
func actionSchemas(ctx context.Context) (map[string]any, error) {
	resp, err := provider.NewProtocol6Server("docs")().GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		return nil, fmt.Errorf("reading the provider's schema: %w", err)
	}
	out := map[string]any{}
	for name, s := range resp.ActionSchemas {
		block, err := blockJSON(s.Schema.Block)
		if err != nil {
			return nil, fmt.Errorf("action %s: %w", name, err)
		}
		out[name] = map[string]any{"block": block}
	}
	return out, nil
}

// blockJSON is a block of plain attributes, the only kind the actions have.
func blockJSON(b *tfprotov6.SchemaBlock) (map[string]any, error) {
	if len(b.BlockTypes) > 0 {
		return nil, errors.New("nested blocks are not supported")
	}
	attributes := map[string]any{}
	for _, a := range b.Attributes {
		typ, err := typeJSON(a.Type)
		if err != nil {
			return nil, fmt.Errorf("attribute %s: %w", a.Name, err)
		}
		attr := map[string]any{"type": typ, "description": a.Description, "description_kind": "markdown"}
		if a.Required {
			attr["required"] = true
		}
		if a.Optional {
			attr["optional"] = true
		}
		attributes[a.Name] = attr
	}
	return map[string]any{"attributes": attributes, "description": b.Description, "description_kind": "markdown"}, nil
}

// typeJSON is a primitive type as the JSON schema writes it.
func typeJSON(t tftypes.Type) (string, error) {
	switch {
	case t.Is(tftypes.String):
		return "string", nil
	case t.Is(tftypes.Bool):
		return "bool", nil
	case t.Is(tftypes.Number):
		return "number", nil
	}
	return "", fmt.Errorf("type %s is not supported", t)
}
