package apm

import (
	"context"
	"fmt"
)

// An object's detail is taken as that object only when it names it: the field that
// identifies the object holds the name asked for. A captive portal, a misrouted proxy or a
// manager's default page may answer 200 with JSON that is not the object ({}, or another
// object); read as the object, it would show every field as drift and plan writes that
// "repair" them.

// identifiedBy reads the identifying field of an answer: its JSON name and its value.
type identifiedBy[W any] func(W) (field, value string)

// getDetail reads the detail of the object named name at pattern filled with name and
// then parents (see getOne), checks that it names that object, and converts it with conv.
func getDetail[W, T any](ctx context.Context, c *Client, id identifiedBy[W], conv func(W) T, pattern, name string, parents ...string) (*T, error) {
	path, err := buildPath(pattern, append([]string{name}, parents...)...)
	if err != nil {
		return nil, err
	}
	return getDetailAt(ctx, c, path, name, id, conv)
}

// getDetailAt is getDetail at an already built path.
func getDetailAt[W, T any](ctx context.Context, c *Client, path, name string, id identifiedBy[W], conv func(W) T) (*T, error) {
	var w W
	identify := func(cl *call) { cl.identify = func() (string, string) { return id(w) } }
	if err := c.get(ctx, path, nil, &w, about(name), identify); err != nil {
		return nil, err
	}
	out := conv(w)
	return &out, nil
}

// notTheObject is the error for a detail that does not name the object asked for.
func notTheObject(method, path string, status int, field, asked, got string) *Error {
	what := fmt.Sprintf("it names no %s", field)
	if got != "" {
		what = fmt.Sprintf("its %s is %q", field, shorten(got))
	}
	return invalidResponse(method, path, status, fmt.Sprintf(
		"the answer is not the detail of %q asked for: %s. Check that the endpoint, including its path prefix, reaches the manager and no proxy or portal in between", asked, what))
}
