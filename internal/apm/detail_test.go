package apm

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
)

// An answer that names no object, or another one, is not the object asked for: `{}` from
// a captive portal was read as user alice with empty fields, and the plan wanted to write
// them back.
func TestDetailMustNameTheObjectAskedFor(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name, field string
		get         func(c *Client) (any, error)
	}{
		{"GetSystem", "systemName", func(c *Client) (any, error) { return c.GetSystem(ctx, "shop") }},
		{"GetNode", "nodeName", func(c *Client) (any, error) { return c.GetNode(ctx, "shop", "shop") }},
		{"GetServer", "serverId", func(c *Client) (any, error) {
			return c.GetServer(ctx, ServerRef{Kind: KindWAS, ServerID: "shop", NodeName: "n", SystemName: "s"})
		}},
		{"GetDatabase", "resourceName", func(c *Client) (any, error) { return c.GetDatabase(ctx, "shop") }},
		{"GetDatasource", "resourceName", func(c *Client) (any, error) { return c.GetDatasource(ctx, "shop") }},
		{"GetUser", "usrId", func(c *Client) (any, error) { return c.GetUser(ctx, "shop") }},
		{"GetRole", "authId", func(c *Client) (any, error) { return c.GetRole(ctx, "shop") }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for body, want := range map[string]string{
				`{}`: "names no " + tc.field,
				`{"` + tc.field + `":"other","status":"running"}`: `its ` + tc.field + ` is "other"`,
				`{"` + tc.field + `":"SHOP"}`:                     `its ` + tc.field + ` is "SHOP"`,
			} {
				srv, _ := serve(t, func(w http.ResponseWriter, _ *http.Request, _ int) { reply(w, 200, body) })
				got, err := tc.get(newTestClient(t, srv.URL))
				var e *Error
				if !errors.As(err, &e) || e.Code != CodeInvalidResponse || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), `"shop" asked for`) {
					t.Errorf("answer %s: got %+v, %v; want an invalid response saying %q", body, got, err, want)
				}
			}
			srv, _ := serve(t, func(w http.ResponseWriter, _ *http.Request, _ int) { reply(w, 200, `{"`+tc.field+`":"shop"}`) })
			if _, err := tc.get(newTestClient(t, srv.URL)); err != nil {
				t.Errorf("the object itself: %v", err)
			}
		})
	}
}
