package engine_test

import (
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/apmplatform/terraform-provider-apm/internal/provider/engine"
)

// What a new simple type costs: apm_example, with a name (replacing), a port (in place)
// and an id the manager sets, on a client of its own. The engine supplies the schema, the
// flow, import, 404 and 409 handling, timeouts and the diagnostics.

type example struct {
	ID, Name string
	Port     int64
}

// exampleClient stands for internal/apm: the manager's calls on examples.
type exampleClient struct {
	mu       sync.Mutex
	examples map[string]example
}

var exampleFields = []engine.Field[example]{
	engine.StringField("id", "The manager's id of the example.", func(e *example) string { return e.ID }),
	engine.StringField("name", "Name of the example.", func(e *example) string { return e.Name }).Replacing(),
	engine.Int64Field("port", "Port of the example, 1 to 65535.", func(e *example) int64 { return e.Port }).Input(),
}

var exampleType = engine.ResourceType[example, *exampleClient]{
	Name:        "example",
	Description: "An example.",
	Fields:      exampleFields,
	ImportID:    engine.ImportID[*exampleClient]{Parts: []engine.IDPart[*exampleClient]{{Attr: "name", Form: "<name>"}}, Example: "demo"},
	Describe:    func(a engine.Attrs) string { return fmt.Sprintf("example %q", a.Str("name")) },
	Create: func(_ context.Context, c *exampleClient, plan engine.Attrs) error {
		return c.put(example{ID: "ex-" + plan.Str("name"), Name: plan.Str("name"), Port: plan.Int64("port")})
	},
	Read: func(_ context.Context, c *exampleClient, state engine.Attrs) (*example, error) {
		return c.get(state.Str("name"))
	},
	Update: func(_ context.Context, c *exampleClient, plan, _ engine.Attrs) error {
		return c.put(example{ID: plan.Str("id"), Name: plan.Str("name"), Port: plan.Int64("port")})
	},
	Delete: func(_ context.Context, c *exampleClient, state engine.Attrs) error {
		c.mu.Lock()
		defer c.mu.Unlock()
		delete(c.examples, state.Str("name"))
		return nil
	},
}

func (c *exampleClient) put(e example) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.examples[e.Name] = e
	return nil
}

func (c *exampleClient) get(name string) (*example, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.examples[name]; ok {
		return &e, nil
	}
	return nil, fmt.Errorf("example %q: %w", name, engine.ErrGone)
}

func ExampleResourceType() {
	r := engine.NewResource(exampleType)()
	var resp resource.SchemaResponse
	r.Schema(context.Background(), resource.SchemaRequest{}, &resp)
	names := make([]string, 0, len(resp.Schema.Attributes))
	for name := range resp.Schema.Attributes {
		names = append(names, name)
	}
	slices.Sort(names)
	fmt.Println(names)
	// Output: [id name port timeouts]
}
