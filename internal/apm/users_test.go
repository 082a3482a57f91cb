package apm

import (
	"context"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestAdminCalls(t *testing.T) {
	runRequestCases(t, adminCalls())
}

// adminCalls are the calls of users, roles and trace logs and the request each sends;
// TestCoverageClientCallsSendTheirEndpoint runs them too.
func adminCalls() []requestCase {
	ctx := context.Background()
	desc := "new text"
	day := func(d int) time.Time { return time.Date(2024, 5, d, 23, 59, 0, 0, time.UTC) }
	return []requestCase{
		{"ListUsers", func(c *Client) error { _, err := c.ListUsers(ctx); return err },
			"GET", "/rest/admin/users", "", "", `{"users":[]}`},
		{"GetUser escapes", func(c *Client) error { _, err := c.GetUser(ctx, "a b"); return err },
			"GET", "/rest/admin/user/a%20b", "", "", `{"usrId":"a b"}`},
		{"CreateUser", func(c *Client) error {
			return c.CreateUser(ctx, UserSpec{UserID: "bob", UserName: "Bob", Password: "Secret-123"})
		}, "POST", "/rest/admin/user", "", `{"usrId":"bob","usrNm":"Bob","usrPw":"Secret-123"}`, `{"actionResult":"Y"}`},
		{"ModifyUser name only", func(c *Client) error { return c.ModifyUser(ctx, "bob", UserUpdate{UserName: "Robert"}) },
			"PUT", "/rest/admin/user/bob", "", `{"usrNm":"Robert"}`, `{"actionResult":"Y"}`},
		{"ModifyUser password only", func(c *Client) error { return c.ModifyUser(ctx, "bob", UserUpdate{Password: "Other-456"}) },
			"PUT", "/rest/admin/user/bob", "", `{"usrPw":"Other-456"}`, `{"actionResult":"Y"}`},
		{"DeleteUser", func(c *Client) error { return c.DeleteUser(ctx, "bob") },
			"DELETE", "/rest/admin/user/bob", "", "", `{"actionResult":"Y"}`},
		{"GrantRole", func(c *Client) error { return c.GrantRole(ctx, "bob", "operators") },
			"POST", "/rest/admin/user/bob/auth/grant", "", `{"authId":"operators"}`, `{"actionResult":"Y"}`},
		{"RevokeRole", func(c *Client) error { return c.RevokeRole(ctx, "bob", "operators") },
			"POST", "/rest/admin/user/bob/auth/revoke", "", `{"authId":"operators"}`, `{"actionResult":"Y"}`},
		{"ListUserRoles", func(c *Client) error { _, err := c.ListUserRoles(ctx, "bob"); return err },
			"GET", "/rest/admin/user/bob/auth", "", "", `{"auths":[]}`},
		{"ListRoles", func(c *Client) error { _, err := c.ListRoles(ctx); return err },
			"GET", "/rest/admin/auth", "", "", `{"auths":[]}`},
		{"GetRole", func(c *Client) error { _, err := c.GetRole(ctx, "ops"); return err },
			"GET", "/rest/admin/auth/ops", "", "", `{"authId":"ops"}`},
		{"CreateRole", func(c *Client) error {
			return c.CreateRole(ctx, RoleSpec{AuthID: "ops", AuthName: "Ops", ActionTypes: []ActionType{ActionRead, ActionExecute}, Description: "d"})
		}, "POST", "/rest/admin/auth", "", `{"authId":"ops","authNm":"Ops","actionTypes":["READ","EXECUTE"],"description":"d"}`, `{"actionResult":"Y"}`},
		{"ModifyRole all", func(c *Client) error {
			return c.ModifyRole(ctx, "ops", RoleUpdate{AuthName: "Ops 2", ActionTypes: []ActionType{ActionWrite}, Description: &desc})
		}, "PUT", "/rest/admin/auth/ops", "", `{"authNm":"Ops 2","actionTypes":["WRITE"],"description":"new text"}`, `{"actionResult":"Y"}`},
		{"ModifyRole clears description", func(c *Client) error {
			empty := ""
			return c.ModifyRole(ctx, "ops", RoleUpdate{Description: &empty})
		}, "PUT", "/rest/admin/auth/ops", "", `{"description":""}`, `{"actionResult":"Y"}`},
		{"DeleteRole", func(c *Client) error { return c.DeleteRole(ctx, "ops") },
			"DELETE", "/rest/admin/auth/ops", "", "", `{"actionResult":"Y"}`},
		{"ActionTraceLogs unfiltered", func(c *Client) error { _, err := c.ActionTraceLogs(ctx, TraceLogFilter{}); return err },
			"GET", "/rest/admin/actionTraceLogList", "", "", `{"logs":[]}`},
		{"ActionTraceLogs both days", func(c *Client) error {
			_, err := c.ActionTraceLogs(ctx, TraceLogFilter{Start: day(1), End: day(6)})
			return err
		}, "GET", "/rest/admin/actionTraceLogList", "endDate=20240506&startDate=20240501", "", `{"logs":[]}`},
		{"ActionTraceLogs same day, end earlier in the day", func(c *Client) error {
			_, err := c.ActionTraceLogs(ctx, TraceLogFilter{Start: day(6), End: time.Date(2024, 5, 6, 0, 0, 0, 0, time.UTC)})
			return err
		}, "GET", "/rest/admin/actionTraceLogList", "endDate=20240506&startDate=20240506", "", `{"logs":[]}`},
		{"ActionTraceLogs open start", func(c *Client) error {
			_, err := c.ActionTraceLogs(ctx, TraceLogFilter{End: day(6)})
			return err
		}, "GET", "/rest/admin/actionTraceLogList", "endDate=20240506", "", `{"logs":[]}`},
	}
}

func TestTraceLogFilterEndBeforeStartSendsNothing(t *testing.T) {
	srv, rec := serve(t, func(w http.ResponseWriter, _ *http.Request, _ int) { reply(w, 200, `{"logs":[]}`) })
	_, err := newTestClient(t, srv.URL).ActionTraceLogs(context.Background(), TraceLogFilter{
		Start: time.Date(2024, 5, 6, 0, 0, 0, 0, time.UTC), End: time.Date(2024, 5, 5, 23, 0, 0, 0, time.UTC),
	})
	want := "GET /rest/admin/actionTraceLogList: trace log filter: end date 20240505 is before start date 20240506"
	if err == nil || err.Error() != want {
		t.Errorf("err = %v, want %q", err, want)
	}
	if rec.count() != 0 {
		t.Errorf("%d requests sent for an invalid filter", rec.count())
	}
}

func TestAdminDecodingIsLenient(t *testing.T) {
	srv, _ := serve(t, func(w http.ResponseWriter, r *http.Request, _ int) {
		switch r.URL.Path {
		case "/rest/admin/users":
			reply(w, 200, `{"users":[{"usrId":"a","usrNm":"A","roles":["x",{"authId":"y"}]},{"usrId":"b","roles":null}]}`)
		case "/rest/admin/user/a":
			reply(w, 200, `{"usrId":"a","usrNm":"A","roles":[],"createdAt":"2024-05-06"}`)
		case "/rest/admin/user/a/auth":
			reply(w, 200, `{"auths":[{"authId":"x","authNm":"X","actionTypes":["READ"]}]}`)
		case "/rest/admin/auth":
			reply(w, 200, `{"auths":[{"authId":"x","authNm":"X","actionTypes":[" read ","Write"]},{"authId":"y","actionTypes":"READ, execute"},{"authId":"z"}]}`)
		case "/rest/admin/auth/x":
			reply(w, 200, `{"authId":"x","authNm":"X","actionTypes":["EXECUTE"],"description":"d"}`)
		default:
			reply(w, 200, `{"logs":[{"logId":"7","userId":"admin","action":"POST /rest/systems","targetName":"/systems","result":"SUCCESS","createdAt":"2024-05-06 07:08:09"}]}`)
		}
	})
	c := newTestClient(t, srv.URL)
	ctx := context.Background()

	users, err := c.ListUsers(ctx)
	wantUsers := []User{{UserID: "a", UserName: "A", Roles: []string{"x", "y"}}, {UserID: "b", Roles: []string{}}}
	if err != nil || !reflect.DeepEqual(users, wantUsers) {
		t.Errorf("ListUsers = %+v, %v", users, err)
	}
	u, err := c.GetUser(ctx, "a")
	if err != nil || u.UserID != "a" || len(u.Roles) != 0 || u.Roles == nil ||
		u.CreatedAt.Raw != "2024-05-06" || !u.CreatedAt.Time.Equal(time.Date(2024, 5, 6, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("GetUser = %+v, %v", u, err)
	}
	ur, err := c.ListUserRoles(ctx, "a")
	if err != nil || !reflect.DeepEqual(ur, []UserRole{{AuthID: "x", AuthName: "X"}}) {
		t.Errorf("ListUserRoles = %+v, %v", ur, err)
	}
	roles, err := c.ListRoles(ctx)
	wantRoles := []Role{
		{AuthID: "x", AuthName: "X", ActionTypes: []ActionType{ActionRead, ActionWrite}},
		{AuthID: "y", ActionTypes: []ActionType{ActionRead, ActionExecute}},
		{AuthID: "z", ActionTypes: []ActionType{}},
	}
	if err != nil || !reflect.DeepEqual(roles, wantRoles) {
		t.Errorf("ListRoles = %+v, %v", roles, err)
	}
	role, err := c.GetRole(ctx, "x")
	if err != nil || !reflect.DeepEqual(*role, Role{AuthID: "x", AuthName: "X", ActionTypes: []ActionType{ActionExecute}, Description: "d"}) {
		t.Errorf("GetRole = %+v, %v", role, err)
	}
	logs, err := c.ActionTraceLogs(ctx, TraceLogFilter{})
	if err != nil || len(logs) != 1 {
		t.Fatalf("ActionTraceLogs = %+v, %v", logs, err)
	}
	l := logs[0]
	if l.LogID != 7 || l.UserID != "admin" || l.Action != "POST /rest/systems" || l.TargetName != "/systems" || l.Result != "SUCCESS" ||
		!l.CreatedAt.Time.Equal(time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)) {
		t.Errorf("log entry = %+v", l)
	}
}

func TestActionTypeValid(t *testing.T) {
	for _, a := range []ActionType{ActionRead, ActionWrite, ActionExecute} {
		if !a.Valid() {
			t.Errorf("%s not valid", a)
		}
	}
	for _, a := range []ActionType{"", "read", "DELETE"} {
		if a.Valid() {
			t.Errorf("%q valid", a)
		}
	}
}

func TestUserRequestsHidePassword(t *testing.T) {
	const pw = "Very-Secret-9"
	for name, v := range map[string]any{
		"UserSpec":   UserSpec{UserID: "bob", UserName: "Bob", Password: pw},
		"UserUpdate": UserUpdate{UserName: "Bob", Password: pw},
	} {
		for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%d"} {
			if out := fmt.Sprintf(verb, v); strings.Contains(out, pw) || !strings.Contains(out, "REDACTED") {
				t.Errorf("%s %s: %s", name, verb, out)
			}
		}
	}
	if got := (UserSpec{UserID: "bob", UserName: "Bob", Password: pw}).String(); got != `apm.UserSpec{UserID:"bob", UserName:"Bob", Password:REDACTED}` {
		t.Errorf("UserSpec.String() = %s", got)
	}
	if got := (UserUpdate{UserName: "Bob"}).String(); got != `apm.UserUpdate{UserName:"Bob", Password:""}` {
		t.Errorf("UserUpdate.String() = %s", got)
	}
}

// A manager that echoes a rejected password must not put it into the error.
func TestUserWriteErrorsHideEchoedPassword(t *testing.T) {
	const pw = "echo-Me-2!"
	srv, _ := serve(t, func(w http.ResponseWriter, _ *http.Request, _ int) {
		reply(w, 200, `{"actionResult":"N","message":"password `+pw+` was used before"}`)
	})
	c := newTestClient(t, srv.URL)
	for name, err := range map[string]error{
		"CreateUser": c.CreateUser(context.Background(), UserSpec{UserID: "bob", UserName: "Bob", Password: pw}),
		"ModifyUser": c.ModifyUser(context.Background(), "bob", UserUpdate{Password: pw}),
	} {
		if !IsActionFailed(err) || strings.Contains(err.Error(), pw) || !strings.Contains(err.Error(), "password REDACTED was used before") {
			t.Errorf("%s: err = %v", name, err)
		}
	}
}
