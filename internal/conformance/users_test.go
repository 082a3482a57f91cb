package conformance

import (
	"context"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
)

// Cases for 4.7 against the demo seed: roles admins (READ, WRITE, EXECUTE), operators
// (READ, EXECUTE) and auditors (READ, granted to nobody); users ops.admin (admins) and
// operator (operators); three trace log entries.
var _ = addCases(
	endpointCase{"GET /rest/admin/actionTraceLogList", func(ctx context.Context, c *apm.Client) error {
		return expectLen(c.ActionTraceLogs(ctx, apm.TraceLogFilter{}))
	}},
	endpointCase{"GET /rest/admin/users", func(ctx context.Context, c *apm.Client) error {
		return expectLen(c.ListUsers(ctx))
	}},
	endpointCase{"GET /rest/admin/user/{usrId}", func(ctx context.Context, c *apm.Client) error {
		u, err := c.GetUser(ctx, "operator")
		if err == nil && (u.CreatedAt.IsZero() || !reflect.DeepEqual(u.Roles, []string{"operators"})) {
			err = fmt.Errorf("operator = %+v", u)
		}
		return err
	}},
	endpointCase{"POST /rest/admin/user", func(ctx context.Context, c *apm.Client) error {
		return c.CreateUser(ctx, apm.UserSpec{UserID: "newbie", UserName: "New Person", Password: "Welcome-1"})
	}},
	endpointCase{"PUT /rest/admin/user/{usrId}", func(ctx context.Context, c *apm.Client) error {
		return c.ModifyUser(ctx, "operator", apm.UserUpdate{UserName: "Night Operator", Password: "Night-shift-2"})
	}},
	endpointCase{"DELETE /rest/admin/user/{usrId}", func(ctx context.Context, c *apm.Client) error {
		return c.DeleteUser(ctx, "operator")
	}},
	endpointCase{"POST /rest/admin/user/{usrId}/auth/grant", func(ctx context.Context, c *apm.Client) error {
		return c.GrantRole(ctx, "operator", "auditors")
	}},
	endpointCase{"POST /rest/admin/user/{usrId}/auth/revoke", func(ctx context.Context, c *apm.Client) error {
		return c.RevokeRole(ctx, "operator", "operators")
	}},
	endpointCase{"GET /rest/admin/user/{usrId}/auth", func(ctx context.Context, c *apm.Client) error {
		return expectLen(c.ListUserRoles(ctx, "operator"))
	}},
	endpointCase{"GET /rest/admin/auth", func(ctx context.Context, c *apm.Client) error {
		return expectLen(c.ListRoles(ctx))
	}},
	endpointCase{"POST /rest/admin/auth", func(ctx context.Context, c *apm.Client) error {
		return c.CreateRole(ctx, apm.RoleSpec{AuthID: "deployers", AuthName: "Deployers",
			ActionTypes: []apm.ActionType{apm.ActionWrite, apm.ActionExecute}, Description: "Deploy applications"})
	}},
	endpointCase{"GET /rest/admin/auth/{authId}", func(ctx context.Context, c *apm.Client) error {
		r, err := c.GetRole(ctx, "operators")
		if err == nil && !reflect.DeepEqual(r.ActionTypes, []apm.ActionType{apm.ActionRead, apm.ActionExecute}) {
			err = fmt.Errorf("operators = %+v", r)
		}
		return err
	}},
	endpointCase{"PUT /rest/admin/auth/{authId}", func(ctx context.Context, c *apm.Client) error {
		return c.ModifyRole(ctx, "operators", apm.RoleUpdate{ActionTypes: []apm.ActionType{apm.ActionRead}})
	}},
	endpointCase{"DELETE /rest/admin/auth/{authId}", func(ctx context.Context, c *apm.Client) error {
		return c.DeleteRole(ctx, "auditors")
	}},
)

func TestAdminBodiesHaveTheDocumentedShape(t *testing.T) {
	checkShapes(t, newFixture(t).sim, []shapeCase{
		{"/rest/admin/users", "users", "roles:array usrId:string usrNm:string"},
		{"/rest/admin/user/operator", "", "createdAt:string roles:array usrId:string usrNm:string"},
		{"/rest/admin/user/operator/auth", "auths", "authId:string authNm:string"},
		{"/rest/admin/auth", "auths", "actionTypes:array authId:string authNm:string"},
		{"/rest/admin/auth/operators", "", "actionTypes:array authId:string authNm:string description:string"},
		{"/rest/admin/actionTraceLogList", "logs",
			"action:string createdAt:string logId:number result:string targetName:string userId:string"},
	})
}

func TestUsersAndRolesThroughTheClient(t *testing.T) {
	clock := &settableClock{t: time.Date(2025, 2, 3, 4, 5, 6, 0, time.UTC)}
	f := newFixtureWithClock(t, clock.now)
	ctx := context.Background()
	c := f.admin

	checkErr(t, c.CreateRole(ctx, apm.RoleSpec{AuthID: "ops", AuthName: "Ops", ActionTypes: []apm.ActionType{"execute", "READ", "read"}, Description: "d"}), wantErr{})
	role, err := c.GetRole(ctx, "ops")
	if err != nil || !reflect.DeepEqual(*role, apm.Role{AuthID: "ops", AuthName: "Ops", ActionTypes: []apm.ActionType{apm.ActionRead, apm.ActionExecute}, Description: "d"}) {
		t.Fatalf("GetRole = %+v, %v", role, err)
	}
	empty := ""
	checkErr(t, c.ModifyRole(ctx, "ops", apm.RoleUpdate{AuthName: "Operations", Description: &empty}), wantErr{})
	roles, err := c.ListRoles(ctx)
	if err != nil || len(roles) != 4 || !reflect.DeepEqual(roles[3], apm.Role{AuthID: "ops", AuthName: "Operations", ActionTypes: []apm.ActionType{apm.ActionRead, apm.ActionExecute}}) {
		t.Fatalf("ListRoles = %+v, %v", roles, err)
	}

	checkErr(t, c.CreateUser(ctx, apm.UserSpec{UserID: "dana", UserName: "Dana", Password: "Dana-pw-77"}), wantErr{})
	checkErr(t, c.GrantRole(ctx, "dana", "ops"), wantErr{})
	checkErr(t, c.GrantRole(ctx, "dana", "ops"), wantErr{}) // granting twice changes nothing
	checkErr(t, c.GrantRole(ctx, "dana", "auditors"), wantErr{})
	u, err := c.GetUser(ctx, "dana")
	if err != nil || u.UserName != "Dana" || !reflect.DeepEqual(u.Roles, []string{"auditors", "ops"}) ||
		u.CreatedAt.Raw != "2025-02-03" || !u.CreatedAt.Time.Equal(time.Date(2025, 2, 3, 0, 0, 0, 0, time.UTC)) {
		t.Fatalf("GetUser = %+v, %v", u, err)
	}
	ur, err := c.ListUserRoles(ctx, "dana")
	if err != nil || !reflect.DeepEqual(ur, []apm.UserRole{{AuthID: "auditors", AuthName: "Auditors"}, {AuthID: "ops", AuthName: "Operations"}}) {
		t.Fatalf("ListUserRoles = %+v, %v", ur, err)
	}
	checkErr(t, c.DeleteRole(ctx, "ops"), wantErr{409, "CONFLICT", "Role ops is granted to user(s) dana; revoke it first"})
	checkErr(t, c.RevokeRole(ctx, "dana", "ops"), wantErr{})
	checkErr(t, c.RevokeRole(ctx, "dana", "ops"), wantErr{}) // revoking a role not granted changes nothing
	checkErr(t, c.DeleteRole(ctx, "ops"), wantErr{})

	checkErr(t, c.ModifyUser(ctx, "dana", apm.UserUpdate{UserName: "Dana S."}), wantErr{})
	users, err := c.ListUsers(ctx)
	if err != nil || !reflect.DeepEqual(users, []apm.User{
		{UserID: "dana", UserName: "Dana S.", Roles: []string{"auditors"}},
		{UserID: "operator", UserName: "Shop Operator", Roles: []string{"operators"}},
		{UserID: "ops.admin", UserName: "Operations Admin", Roles: []string{"admins"}},
	}) {
		t.Fatalf("ListUsers = %+v, %v", users, err)
	}
	checkErr(t, c.DeleteUser(ctx, "dana"), wantErr{})
	if _, err := c.GetUser(ctx, "dana"); !apm.IsNotFound(err) {
		t.Fatalf("after delete: %v", err)
	}
}

func TestAdminErrorsThroughTheClient(t *testing.T) {
	c := newFixture(t).admin
	bad := func(msg string) wantErr { return wantErr{400, "BAD_REQUEST", msg} }
	user := func(id, pw string) func(ctx context.Context) error {
		return func(ctx context.Context) error {
			return c.CreateUser(ctx, apm.UserSpec{UserID: id, UserName: "N", Password: pw})
		}
	}
	role := func(id string, types ...apm.ActionType) func(ctx context.Context) error {
		return func(ctx context.Context) error {
			return c.CreateRole(ctx, apm.RoleSpec{AuthID: id, AuthName: "N", ActionTypes: types})
		}
	}
	tests := []struct {
		name string
		call func(ctx context.Context) error
		want wantErr
	}{
		{"password without digit and special", user("u1", "abcdefgh"), bad("usrPw must contain at least one digit and one special character")},
		{"short password", user("u1", "a1!"), bad("usrPw must be at least 8 characters long")},
		{"password without letter", user("u1", "1234-5678"), bad("usrPw must contain at least one letter")},
		{"no password", user("u1", ""), bad("usrPw is required")},
		{"bad usrId", user("u 1", "Good-pass1"), bad("Invalid usrId: u 1 (allowed: 1-32 characters: letters, digits, '.', '-' and '_')")},
		{"duplicate user", user("operator", "Good-pass1"), wantErr{409, "CONFLICT", "User already exists: operator"}},
		{"unknown user", func(ctx context.Context) error { _, err := c.GetUser(ctx, "ghost"); return err },
			wantErr{404, "NOT_FOUND", "User not found: ghost"}},
		{"roles of unknown user", func(ctx context.Context) error { _, err := c.ListUserRoles(ctx, "ghost"); return err },
			wantErr{404, "NOT_FOUND", "User not found: ghost"}},
		{"modify weak password", func(ctx context.Context) error {
			return c.ModifyUser(ctx, "operator", apm.UserUpdate{Password: "password1"})
		}, bad("usrPw must contain at least one special character")},
		{"delete unknown user", func(ctx context.Context) error { return c.DeleteUser(ctx, "ghost") },
			wantErr{404, "NOT_FOUND", "User not found: ghost"}},
		{"grant unknown role", func(ctx context.Context) error { return c.GrantRole(ctx, "operator", "nope") },
			wantErr{404, "NOT_FOUND", "Role not found: nope"}},
		{"grant to unknown user", func(ctx context.Context) error { return c.GrantRole(ctx, "ghost", "admins") },
			wantErr{404, "NOT_FOUND", "User not found: ghost"}},
		{"grant without role", func(ctx context.Context) error { return c.GrantRole(ctx, "operator", "") },
			bad("authId is required")},
		{"role without action types", role("r1"), bad("actionTypes is required")},
		{"role with unknown action type", role("r1", apm.ActionRead, "DELETE"), bad("Invalid actionType: DELETE (allowed: READ, WRITE, EXECUTE)")},
		{"duplicate role", role("admins", apm.ActionRead), wantErr{409, "CONFLICT", "Role already exists: admins"}},
		{"unknown role", func(ctx context.Context) error { _, err := c.GetRole(ctx, "nope"); return err },
			wantErr{404, "NOT_FOUND", "Role not found: nope"}},
		{"modify unknown role", func(ctx context.Context) error { return c.ModifyRole(ctx, "nope", apm.RoleUpdate{AuthName: "x"}) },
			wantErr{404, "NOT_FOUND", "Role not found: nope"}},
		{"delete granted role", func(ctx context.Context) error { return c.DeleteRole(ctx, "admins") },
			wantErr{409, "CONFLICT", "Role admins is granted to user(s) ops.admin; revoke it first"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.call(context.Background())
			checkErr(t, err, tc.want)
			if err != nil && strings.Contains(err.Error(), "Good-pass1") {
				t.Errorf("password in the error: %v", err)
			}
		})
	}
}

// Passwords are accepted but never come back in any read.
func TestPasswordsNeverComeBack(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	checkErr(t, f.admin.CreateUser(ctx, apm.UserSpec{UserID: "pw", UserName: "Pw", Password: "Hidden-pw-41"}), wantErr{})
	checkErr(t, f.admin.ModifyUser(ctx, "pw", apm.UserUpdate{Password: "Hidden-pw-42"}), wantErr{})
	checkErr(t, f.admin.CreateDatabase(ctx, apm.DatabaseSpec{ResourceName: "pw-db", DatabaseType: "MySQL", Host: "h",
		Port: 1, DatabaseName: "d", UserName: "u", Password: "Hidden-pw-43"}), wantErr{})
	for _, p := range []string{"/rest/admin/users", "/rest/admin/user/pw", "/rest/resource/databases",
		"/rest/resource/databases/pw-db", "/rest/admin/actionTraceLogList"} {
		status, body := rawGet(t, f.sim, p, adminKey)
		if status != http.StatusOK || strings.Contains(string(body), "Hidden-pw") || strings.Contains(string(body), "assword") {
			t.Errorf("GET %s: %d %s", p, status, body)
		}
	}
}

// A write the manager declines with a 200 actionResult N is a FAILURE in the trace log,
// as the spec calls N a failed operation; a Y is a SUCCESS.
func TestActionTraceLogCountsRefusalsAsFailures(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	c := f.admin
	lastEntry := func() apm.ActionTraceLog {
		t.Helper()
		logs, err := c.ActionTraceLogs(ctx, apm.TraceLogFilter{})
		if err != nil || len(logs) == 0 {
			t.Fatalf("trace log: %+v, %v", logs, err)
		}
		return logs[len(logs)-1]
	}
	checkErr(t, c.StartServer(ctx, svWAS01), wantErr{200, apm.CodeActionFailed, "Server was-01 is already running"})
	if e := lastEntry(); e.Action != "POST /rest/was/servers/was-01/nodes/web-01/systems/shop/action" || e.TargetName != "was-01" || e.Result != "FAILURE" {
		t.Errorf("refused start logged as %+v", e)
	}
	checkErr(t, c.StartServer(ctx, svWAS02), wantErr{})
	if e := lastEntry(); e.Action != "POST /rest/was/servers/was-02/nodes/web-01/systems/shop/action" || e.Result != "SUCCESS" {
		t.Errorf("start logged as %+v", e)
	}
}

func TestActionTraceLogThroughTheClient(t *testing.T) {
	clock := &settableClock{t: time.Date(2025, 3, 9, 23, 59, 58, 0, time.UTC)}
	f := newFixtureWithClock(t, clock.now)
	ctx := context.Background()
	c := f.admin
	// Demo entries are at the start time (day 9); then one write on each of days 10 and 11.
	clock.set(time.Date(2025, 3, 10, 8, 0, 0, 0, time.UTC))
	checkErr(t, c.CreateSystem(ctx, "tl-sys"), wantErr{})
	clock.set(time.Date(2025, 3, 11, 9, 30, 15, 0, time.UTC))
	checkErr(t, c.DeleteUser(ctx, "ghost"), wantErr{404, "NOT_FOUND", "User not found: ghost"})

	day := func(d int) time.Time { return time.Date(2025, 3, d, 12, 0, 0, 0, time.UTC) }
	all, err := c.ActionTraceLogs(ctx, apm.TraceLogFilter{})
	if err != nil || len(all) != 5 {
		t.Fatalf("all = %+v, %v", all, err)
	}
	last := all[4]
	if last.LogID != 5 || last.UserID != "admin" || last.Action != "DELETE /rest/admin/user/ghost" || last.TargetName != "ghost" ||
		last.Result != "FAILURE" || last.CreatedAt.Raw != "2025-03-11 09:30:15" || !last.CreatedAt.Time.Equal(time.Date(2025, 3, 11, 9, 30, 15, 0, time.UTC)) {
		t.Errorf("last entry = %+v", last)
	}
	if e := all[3]; e.Action != "POST /rest/systems" || e.Result != "SUCCESS" || e.CreatedAt.Raw != "2025-03-10 08:00:00" {
		t.Errorf("entry 4 = %+v", e)
	}
	for _, tc := range []struct {
		filter apm.TraceLogFilter
		want   []int64
	}{
		{apm.TraceLogFilter{Start: day(10)}, []int64{4, 5}},
		{apm.TraceLogFilter{End: day(10)}, []int64{1, 2, 3, 4}},
		{apm.TraceLogFilter{Start: day(10), End: day(10)}, []int64{4}},
		{apm.TraceLogFilter{Start: day(12)}, []int64{}},
	} {
		logs, err := c.ActionTraceLogs(ctx, tc.filter)
		ids := []int64{}
		for _, l := range logs {
			ids = append(ids, l.LogID)
		}
		if err != nil || !reflect.DeepEqual(ids, tc.want) {
			t.Errorf("%+v: ids %v, %v; want %v", tc.filter, ids, err, tc.want)
		}
	}

	// An end before the start is refused by the client without a request.
	f.sim.ResetRequestCounts()
	if _, err := c.ActionTraceLogs(ctx, apm.TraceLogFilter{Start: day(11), End: day(10)}); err == nil {
		t.Error("end before start accepted")
	}
	if n := f.sim.RequestCounts()["GET /rest/admin/actionTraceLogList"]; n != 0 {
		t.Errorf("%d requests for an invalid filter", n)
	}
	// The emulator checks the format itself.
	for query, want := range map[string]string{
		"?startDate=2025-03-10":                "startDate must be yyyyMMdd",
		"?endDate=20251310":                    "endDate must be yyyyMMdd",
		"?startDate=20250311&endDate=20250310": "startDate must not be after endDate",
	} {
		status, body := rawGet(t, f.sim, "/rest/admin/actionTraceLogList"+query, adminKey)
		if wantBody := `{"error":"` + want + `","code":"BAD_REQUEST"}`; status != 400 || string(body) != wantBody {
			t.Errorf("%s: %d %s, want 400 %s", query, status, body, wantBody)
		}
	}
}
