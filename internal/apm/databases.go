package apm

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
)

// Resources (spec 4.5): databases and the datasources (connection pools) defined on them.
// Both are identified by resourceName. Databases have no modify endpoint
// (api/decisions.md): a change to any database field means replacing it. A datasource is
// modified through the singular path /rest/resource/datasource/{resourceName}.

// Database is a database resource. The manager never returns its password.
type Database struct {
	ResourceName, DatabaseType, Host string
	Port                             int64
	DatabaseName                     string
	UserName                         string // detail only; "" from the list
}

// DatabaseSpec is the body of POST /rest/resource/databases; every field is required.
// Its String, GoString and Format methods hide the password, so it can be printed and
// logged with any verb.
type DatabaseSpec struct {
	ResourceName string
	DatabaseType string // MySQL, Oracle, PostgreSQL, ...
	Host         string
	Port         int64
	DatabaseName string
	UserName     string
	Password     string
}

func (s DatabaseSpec) String() string {
	return fmt.Sprintf("apm.DatabaseSpec{ResourceName:%q, DatabaseType:%q, Host:%q, Port:%d, DatabaseName:%q, UserName:%q, Password:%s}",
		s.ResourceName, s.DatabaseType, s.Host, s.Port, s.DatabaseName, s.UserName, presence(s.Password, redactedText))
}

// GoString makes %#v safe as well.
func (s DatabaseSpec) GoString() string { return s.String() }

// Format makes every verb safe (%v of a struct would otherwise print its fields).
func (s DatabaseSpec) Format(f fmt.State, verb rune) { formatSafe(f, verb, s.String()) }

// Datasource is a datasource resource: a connection pool on a database resource.
type Datasource struct {
	ResourceName, DatabaseResourceName string
	MinPoolSize, MaxPoolSize           int64
	// Detail only (GET /rest/resource/datasources/{resourceName}); 0 from the list.
	InitialPoolSize int64
	MaxWait         int64 // milliseconds
}

// DatasourceSpec is the body of POST /rest/resource/datasources. ResourceName and
// DatabaseResourceName are required; a nil size is left out, so the manager applies its
// default. Pointers, because 0 is a valid minimum pool size.
type DatasourceSpec struct {
	ResourceName, DatabaseResourceName string
	MinPoolSize, MaxPoolSize           *int64
	InitialPoolSize, MaxWait           *int64 // MaxWait in milliseconds
}

// DatasourceUpdate is the body of PUT /rest/resource/datasource/{resourceName}; nil
// fields are left out and keep their current value.
type DatasourceUpdate struct {
	MinPoolSize, MaxPoolSize *int64
	InitialPoolSize, MaxWait *int64 // MaxWait in milliseconds
}

type wireDatabase struct {
	ResourceName flexString `json:"resourceName"`
	DatabaseType flexString `json:"databaseType"`
	Host         flexString `json:"host"`
	Port         flexInt    `json:"port"`
	DatabaseName flexString `json:"databaseName"`
	UserName     flexString `json:"userName"`
}

func (w wireDatabase) database() Database {
	return Database{
		ResourceName: string(w.ResourceName),
		DatabaseType: string(w.DatabaseType),
		Host:         string(w.Host),
		Port:         int64(w.Port),
		DatabaseName: string(w.DatabaseName),
		UserName:     string(w.UserName),
	}
}

type wireDatasource struct {
	ResourceName         flexString `json:"resourceName"`
	DatabaseResourceName flexString `json:"databaseResourceName"`
	MinPoolSize          flexInt    `json:"minPoolSize"`
	MaxPoolSize          flexInt    `json:"maxPoolSize"`
	InitialPoolSize      flexInt    `json:"initialPoolSize"`
	MaxWait              flexInt    `json:"maxWait"`
}

func (w wireDatasource) datasource() Datasource {
	return Datasource{
		ResourceName:         string(w.ResourceName),
		DatabaseResourceName: string(w.DatabaseResourceName),
		MinPoolSize:          int64(w.MinPoolSize),
		MaxPoolSize:          int64(w.MaxPoolSize),
		InitialPoolSize:      int64(w.InitialPoolSize),
		MaxWait:              int64(w.MaxWait),
	}
}

// createDatabaseBody is the wire form of DatabaseSpec. It is only ever marshalled into the
// request body, which the client never logs.
type createDatabaseBody struct {
	ResourceName string `json:"resourceName"`
	DatabaseType string `json:"databaseType"`
	Host         string `json:"host"`
	Port         int64  `json:"port"`
	DatabaseName string `json:"databaseName"`
	UserName     string `json:"userName"`
	Password     string `json:"password"`
}

type createDatasourceBody struct {
	ResourceName         string `json:"resourceName"`
	DatabaseResourceName string `json:"databaseResourceName"`
	MinPoolSize          *int64 `json:"minPoolSize,omitempty"`
	MaxPoolSize          *int64 `json:"maxPoolSize,omitempty"`
	InitialPoolSize      *int64 `json:"initialPoolSize,omitempty"`
	MaxWait              *int64 `json:"maxWait,omitempty"`
}

type updateDatasourceBody struct {
	MinPoolSize     *int64 `json:"minPoolSize,omitempty"`
	MaxPoolSize     *int64 `json:"maxPoolSize,omitempty"`
	InitialPoolSize *int64 `json:"initialPoolSize,omitempty"`
	MaxWait         *int64 `json:"maxWait,omitempty"`
}

// ListDatabases returns every database resource (GET /rest/resource/databases). The
// result is never nil.
func (c *Client) ListDatabases(ctx context.Context) ([]Database, error) {
	return getList(ctx, c, "/rest/resource/databases", nil, "databases", wireDatabase.database)
}

// GetDatabase returns one database resource (GET /rest/resource/databases/{resourceName}).
func (c *Client) GetDatabase(ctx context.Context, resourceName string) (*Database, error) {
	return getDetail(ctx, c, func(w wireDatabase) (string, string) { return "resourceName", string(w.ResourceName) },
		wireDatabase.database, "/rest/resource/databases/{}", resourceName)
}

// CreateDatabase creates a database resource (POST /rest/resource/databases). An existing
// name gives a 409 (IsConflict).
func (c *Client) CreateDatabase(ctx context.Context, spec DatabaseSpec) error {
	err := c.send(ctx, http.MethodPost, "/rest/resource/databases", nil, createDatabaseBody(spec))
	return withoutSecret(err, spec.Password)
}

// DeleteDatabase deletes a database resource (DELETE /rest/resource/databases/{resourceName}).
// A database still used by a datasource gives a 409 (IsConflict).
func (c *Client) DeleteDatabase(ctx context.Context, resourceName string) error {
	path, err := buildPath("/rest/resource/databases/{}", resourceName)
	if err != nil {
		return err
	}
	return c.send(ctx, http.MethodDelete, path, nil, nil, about(resourceName))
}

// ListDatasources returns every datasource (GET /rest/resource/datasources). The result is
// never nil.
func (c *Client) ListDatasources(ctx context.Context) ([]Datasource, error) {
	return getList(ctx, c, "/rest/resource/datasources", nil, "datasources", wireDatasource.datasource)
}

// GetDatasource returns one datasource (GET /rest/resource/datasources/{resourceName}).
func (c *Client) GetDatasource(ctx context.Context, resourceName string) (*Datasource, error) {
	return getDetail(ctx, c, func(w wireDatasource) (string, string) { return "resourceName", string(w.ResourceName) },
		wireDatasource.datasource, "/rest/resource/datasources/{}", resourceName)
}

// CreateDatasource creates a datasource (POST /rest/resource/datasources).
func (c *Client) CreateDatasource(ctx context.Context, spec DatasourceSpec) error {
	return c.send(ctx, http.MethodPost, "/rest/resource/datasources", nil, createDatasourceBody(spec))
}

// ModifyDatasource changes a datasource's pool settings. The spec's path for this one
// operation is singular: PUT /rest/resource/datasource/{resourceName}.
func (c *Client) ModifyDatasource(ctx context.Context, resourceName string, upd DatasourceUpdate) error {
	path, err := buildPath("/rest/resource/datasource/{}", resourceName)
	if err != nil {
		return err
	}
	return c.send(ctx, http.MethodPut, path, nil, updateDatasourceBody(upd), about(resourceName))
}

// DeleteDatasource deletes a datasource (DELETE /rest/resource/datasources/{resourceName}).
func (c *Client) DeleteDatasource(ctx context.Context, resourceName string) error {
	path, err := buildPath("/rest/resource/datasources/{}", resourceName)
	if err != nil {
		return err
	}
	return c.send(ctx, http.MethodDelete, path, nil, nil, about(resourceName))
}

// withoutSecret replaces secret in the message of a manager error, in case the manager
// echoes a rejected value back: a password must not reach diagnostics or logs.
func withoutSecret(err error, secret string) error {
	var e *Error
	if secret != "" && errors.As(err, &e) {
		e.Message = strings.ReplaceAll(e.Message, secret, redactedText)
	}
	return err
}
