package apm

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Administration (spec 4.7): users (by usrId), roles (by authId), the grants between them,
// and the action trace log.

// ActionType is a permission a role grants. The manager documents READ, WRITE and EXECUTE;
// values read from the manager are upper-cased, so "read" arrives as ActionRead.
type ActionType string

// The action types of the manager's roles.
const (
	ActionRead    ActionType = "READ"
	ActionWrite   ActionType = "WRITE"
	ActionExecute ActionType = "EXECUTE"
)

// Valid reports whether a is one of the documented action types.
func (a ActionType) Valid() bool {
	return a == ActionRead || a == ActionWrite || a == ActionExecute
}

// User is a user of the manager. The manager never returns a password.
type User struct {
	UserID, UserName string
	Roles            []string  // authIds granted to the user; never nil
	CreatedAt        Timestamp // detail only (LayoutDate); zero from the list
}

// UserSpec is the body of POST /rest/admin/user; every field is required. Its String,
// GoString and Format methods hide the password.
type UserSpec struct {
	UserID, UserName, Password string
}

func (s UserSpec) String() string {
	return fmt.Sprintf("apm.UserSpec{UserID:%q, UserName:%q, Password:%s}", s.UserID, s.UserName, presence(s.Password, redactedText))
}

// GoString makes %#v safe as well.
func (s UserSpec) GoString() string { return s.String() }

// Format makes every verb safe.
func (s UserSpec) Format(f fmt.State, verb rune) { formatSafe(f, verb, s.String()) }

// UserUpdate is the body of PUT /rest/admin/user/{usrId}; empty fields are left out and
// keep their current value. Its String, GoString and Format methods hide the password.
type UserUpdate struct {
	UserName, Password string
}

func (u UserUpdate) String() string {
	return fmt.Sprintf("apm.UserUpdate{UserName:%q, Password:%s}", u.UserName, presence(u.Password, redactedText))
}

// GoString makes %#v safe as well.
func (u UserUpdate) GoString() string { return u.String() }

// Format makes every verb safe.
func (u UserUpdate) Format(f fmt.State, verb rune) { formatSafe(f, verb, u.String()) }

// UserRole is a role as listed among a user's roles (GET /rest/admin/user/{usrId}/auth).
type UserRole struct{ AuthID, AuthName string }

// Role is a role of the manager.
type Role struct {
	AuthID, AuthName string
	ActionTypes      []ActionType // never nil
	Description      string       // detail only; "" from the list
}

// RoleSpec is the body of POST /rest/admin/auth. AuthID, AuthName and at least one
// action type are required.
type RoleSpec struct {
	AuthID, AuthName string
	ActionTypes      []ActionType
	Description      string
}

// RoleUpdate is the body of PUT /rest/admin/auth/{authId}. An empty AuthName, empty
// ActionTypes and nil Description are left out and keep their current value; a pointer
// to "" clears the description.
type RoleUpdate struct {
	AuthName    string
	ActionTypes []ActionType
	Description *string
}

// ActionTraceLog is one entry of the action trace log.
type ActionTraceLog struct {
	LogID      int64
	UserID     string
	Action     string
	TargetName string
	Result     string
	CreatedAt  Timestamp // LayoutDateTime
}

// TraceLogFilter selects trace log entries by day, both ends inclusive. A zero time leaves
// that end open. Only the date counts: it is sent as yyyyMMdd.
type TraceLogFilter struct {
	Start, End time.Time
}

// query validates the filter and renders it as startDate / endDate.
func (f TraceLogFilter) query() (url.Values, error) {
	q := url.Values{}
	if err := setDateRange(q, "trace log filter", f.Start, f.End); err != nil {
		return nil, err
	}
	return q, nil
}

// authRef is a role reference in a user's "roles": an authId string, or (as a lenient
// reading of other managers) an object carrying authId.
type authRef string

func (a *authRef) UnmarshalJSON(b []byte) error {
	if t := bytes.TrimSpace(b); len(t) > 0 && t[0] == '{' {
		var obj struct {
			AuthID flexString `json:"authId"`
		}
		if err := json.Unmarshal(t, &obj); err != nil {
			return err
		}
		*a = authRef(obj.AuthID)
		return nil
	}
	var s flexString
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	*a = authRef(s)
	return nil
}

// actionTypes decodes a role's actionTypes: an array of strings, or a comma-separated
// string. Values are trimmed and upper-cased; empty ones are dropped.
type actionTypes []ActionType

func (a *actionTypes) UnmarshalJSON(b []byte) error {
	var items []flexString
	if t := bytes.TrimSpace(b); len(t) > 0 && t[0] == '[' {
		if err := json.Unmarshal(t, &items); err != nil {
			return err
		}
	} else {
		var s flexString
		if err := json.Unmarshal(t, &s); err != nil {
			return err
		}
		for _, part := range strings.Split(string(s), ",") {
			items = append(items, flexString(part))
		}
	}
	out := make(actionTypes, 0, len(items))
	for _, it := range items {
		if v := strings.ToUpper(strings.TrimSpace(string(it))); v != "" {
			out = append(out, ActionType(v))
		}
	}
	*a = out
	return nil
}

type wireUser struct {
	UserID    flexString `json:"usrId"`
	UserName  flexString `json:"usrNm"`
	Roles     []authRef  `json:"roles"`
	CreatedAt flexString `json:"createdAt"`
}

func (w wireUser) user() User {
	u := User{UserID: string(w.UserID), UserName: string(w.UserName), Roles: make([]string, 0, len(w.Roles))}
	for _, r := range w.Roles {
		if r != "" {
			u.Roles = append(u.Roles, string(r))
		}
	}
	if w.CreatedAt != "" {
		u.CreatedAt = parseTimestamp(string(w.CreatedAt), LayoutDate)
	}
	return u
}

type wireRole struct {
	AuthID      flexString  `json:"authId"`
	AuthName    flexString  `json:"authNm"`
	ActionTypes actionTypes `json:"actionTypes"`
	Description flexString  `json:"description"`
}

func (w wireRole) role() Role {
	r := Role{AuthID: string(w.AuthID), AuthName: string(w.AuthName), ActionTypes: []ActionType(w.ActionTypes), Description: string(w.Description)}
	if r.ActionTypes == nil {
		r.ActionTypes = []ActionType{}
	}
	return r
}

// userRole is the role as listed among a user's roles.
func (w wireRole) userRole() UserRole {
	return UserRole{AuthID: string(w.AuthID), AuthName: string(w.AuthName)}
}

type wireTraceLog struct {
	LogID      flexInt    `json:"logId"`
	UserID     flexString `json:"userId"`
	Action     flexString `json:"action"`
	TargetName flexString `json:"targetName"`
	Result     flexString `json:"result"`
	CreatedAt  flexString `json:"createdAt"`
}

func (w wireTraceLog) log() ActionTraceLog {
	return ActionTraceLog{
		LogID:      int64(w.LogID),
		UserID:     string(w.UserID),
		Action:     string(w.Action),
		TargetName: string(w.TargetName),
		Result:     string(w.Result),
		CreatedAt:  parseTimestamp(string(w.CreatedAt), LayoutDateTime),
	}
}

type createUserBody struct {
	UserID   string `json:"usrId"`
	UserName string `json:"usrNm"`
	Password string `json:"usrPw"`
}

type updateUserBody struct {
	UserName string `json:"usrNm,omitempty"`
	Password string `json:"usrPw,omitempty"`
}

type authIDBody struct {
	AuthID string `json:"authId"`
}

type createRoleBody struct {
	AuthID      string       `json:"authId"`
	AuthName    string       `json:"authNm"`
	ActionTypes []ActionType `json:"actionTypes"`
	Description string       `json:"description,omitempty"`
}

type updateRoleBody struct {
	AuthName    string       `json:"authNm,omitempty"`
	ActionTypes []ActionType `json:"actionTypes,omitempty"`
	Description *string      `json:"description,omitempty"`
}

// ListUsers returns every user (GET /rest/admin/users). The result is never nil.
func (c *Client) ListUsers(ctx context.Context) ([]User, error) {
	return getList(ctx, c, "/rest/admin/users", nil, "users", wireUser.user)
}

// GetUser returns one user (GET /rest/admin/user/{usrId}).
func (c *Client) GetUser(ctx context.Context, userID string) (*User, error) {
	return getDetail(ctx, c, func(w wireUser) (string, string) { return "usrId", string(w.UserID) },
		wireUser.user, "/rest/admin/user/{}", userID)
}

// CreateUser creates a user (POST /rest/admin/user). A password that breaks the manager's
// policy gives a 400 (IsBadRequest), an existing usrId a 409 (IsConflict).
func (c *Client) CreateUser(ctx context.Context, spec UserSpec) error {
	err := c.send(ctx, http.MethodPost, "/rest/admin/user", nil, createUserBody(spec))
	return withoutSecret(err, spec.Password)
}

// ModifyUser changes a user's name and/or password (PUT /rest/admin/user/{usrId}).
func (c *Client) ModifyUser(ctx context.Context, userID string, upd UserUpdate) error {
	path, err := buildPath("/rest/admin/user/{}", userID)
	if err != nil {
		return err
	}
	return withoutSecret(c.send(ctx, http.MethodPut, path, nil, updateUserBody(upd), about(userID)), upd.Password)
}

// DeleteUser deletes a user (DELETE /rest/admin/user/{usrId}).
func (c *Client) DeleteUser(ctx context.Context, userID string) error {
	path, err := buildPath("/rest/admin/user/{}", userID)
	if err != nil {
		return err
	}
	return c.send(ctx, http.MethodDelete, path, nil, nil, about(userID))
}

// GrantRole grants a role to a user (POST /rest/admin/user/{usrId}/auth/grant).
func (c *Client) GrantRole(ctx context.Context, userID, authID string) error {
	return c.authChange(ctx, "/rest/admin/user/{}/auth/grant", userID, authID)
}

// RevokeRole revokes a role from a user (POST /rest/admin/user/{usrId}/auth/revoke).
func (c *Client) RevokeRole(ctx context.Context, userID, authID string) error {
	return c.authChange(ctx, "/rest/admin/user/{}/auth/revoke", userID, authID)
}

func (c *Client) authChange(ctx context.Context, pattern, userID, authID string) error {
	path, err := buildPath(pattern, userID)
	if err != nil {
		return err
	}
	return c.send(ctx, http.MethodPost, path, nil, authIDBody{AuthID: authID}, about(userID))
}

// ListUserRoles returns the roles granted to a user (GET /rest/admin/user/{usrId}/auth).
// The result is never nil.
func (c *Client) ListUserRoles(ctx context.Context, userID string) ([]UserRole, error) {
	path, err := buildPath("/rest/admin/user/{}/auth", userID)
	if err != nil {
		return nil, err
	}
	return getList(ctx, c, path, nil, "auths", wireRole.userRole, about(userID))
}

// ListRoles returns every role (GET /rest/admin/auth). The result is never nil.
func (c *Client) ListRoles(ctx context.Context) ([]Role, error) {
	return getList(ctx, c, "/rest/admin/auth", nil, "auths", wireRole.role)
}

// GetRole returns one role (GET /rest/admin/auth/{authId}).
func (c *Client) GetRole(ctx context.Context, authID string) (*Role, error) {
	return getDetail(ctx, c, func(w wireRole) (string, string) { return "authId", string(w.AuthID) },
		wireRole.role, "/rest/admin/auth/{}", authID)
}

// CreateRole creates a role (POST /rest/admin/auth).
func (c *Client) CreateRole(ctx context.Context, spec RoleSpec) error {
	return c.send(ctx, http.MethodPost, "/rest/admin/auth", nil, createRoleBody(spec))
}

// ModifyRole changes a role (PUT /rest/admin/auth/{authId}).
func (c *Client) ModifyRole(ctx context.Context, authID string, upd RoleUpdate) error {
	path, err := buildPath("/rest/admin/auth/{}", authID)
	if err != nil {
		return err
	}
	return c.send(ctx, http.MethodPut, path, nil, updateRoleBody(upd), about(authID))
}

// DeleteRole deletes a role (DELETE /rest/admin/auth/{authId}).
func (c *Client) DeleteRole(ctx context.Context, authID string) error {
	path, err := buildPath("/rest/admin/auth/{}", authID)
	if err != nil {
		return err
	}
	return c.send(ctx, http.MethodDelete, path, nil, nil, about(authID))
}

// ActionTraceLogs returns the action trace log (GET /rest/admin/actionTraceLogList),
// filtered by day. An end before the start is refused without a request. The result is
// never nil.
func (c *Client) ActionTraceLogs(ctx context.Context, filter TraceLogFilter) ([]ActionTraceLog, error) {
	q, err := filter.query()
	if err != nil {
		return nil, fmt.Errorf("GET /rest/admin/actionTraceLogList: %w", err)
	}
	return getList(ctx, c, "/rest/admin/actionTraceLogList", q, "logs", wireTraceLog.log)
}
