package apmsim

import (
	"strings"
	"testing"
)

const (
	bobUser   = `{"usrId":"bob","usrNm":"Bob Builder","usrPw":"Build-1t!"}`
	opsRole   = `{"authId":"ops","authNm":"Operations","actionTypes":["read","EXECUTE","Read"],"description":"Run things"}`
	adminRule = " (allowed: 1-32 characters: letters, digits, '.', '-' and '_')"
)

func TestUserLifecycle(t *testing.T) {
	h := newTestSim(t).Handler()
	expect(t, call(t, h, "GET", admin("/rest/admin/users"), ""), 200, `{"users":[]}`)

	mustOK(t, h, "POST", admin("/rest/admin/user"), bobUser)
	mustOK(t, h, "POST", admin("/rest/admin/user"), `{"usrId":"al.ice_1","usrNm":"Alice","usrPw":"Wonder-land9"}`)
	expect(t, call(t, h, "GET", admin("/rest/admin/users"), ""), 200, `{"users":[`+
		`{"usrId":"al.ice_1","usrNm":"Alice","roles":[]},{"usrId":"bob","usrNm":"Bob Builder","roles":[]}]}`)
	// createdAt is the date of the sim's clock (2024-05-06 07:08:09).
	expect(t, call(t, h, "GET", admin("/rest/admin/user/bob"), ""), 200,
		`{"usrId":"bob","usrNm":"Bob Builder","roles":[],"createdAt":"2024-05-06"}`)
	expect(t, call(t, h, "GET", admin("/rest/admin/user/bob/auth"), ""), 200, `{"auths":[]}`)

	mustOK(t, h, "PUT", admin("/rest/admin/user/bob"), `{"usrNm":"Robert"}`)
	mustOK(t, h, "PUT", admin("/rest/admin/user/bob"), `{"usrPw":"N3w-password"}`)
	mustOK(t, h, "PUT", admin("/rest/admin/user/bob"), `{}`)
	expect(t, call(t, h, "GET", admin("/rest/admin/user/bob"), ""), 200,
		`{"usrId":"bob","usrNm":"Robert","roles":[],"createdAt":"2024-05-06"}`)

	expect(t, call(t, h, "POST", admin("/rest/admin/user"), bobUser), 409, errJSON("CONFLICT", "User already exists: bob"))
	mustOK(t, h, "DELETE", admin("/rest/admin/user/bob"), "")
	for _, c := range []struct{ method, path, body string }{
		{"GET", "/rest/admin/user/bob", ""},
		{"GET", "/rest/admin/user/bob/auth", ""},
		{"PUT", "/rest/admin/user/bob", `{"usrNm":"x"}`},
		{"DELETE", "/rest/admin/user/bob", ""},
	} {
		expect(t, call(t, h, c.method, admin(c.path), c.body), 404, errJSON("NOT_FOUND", "User not found: bob"))
	}
}

func TestUserErrors(t *testing.T) {
	h := newTestSim(t).Handler()
	mustOK(t, h, "POST", admin("/rest/admin/user"), bobUser)
	bad := func(msg string) string { return errJSON("BAD_REQUEST", msg) }
	long := strings.Repeat("n", 101)
	tests := []struct {
		name, method, path, body string
		status                   int
		want                     string
	}{
		{"no id", "POST", "/rest/admin/user", `{"usrNm":"A","usrPw":"x"}`, 400, bad("usrId is required")},
		{"no name", "POST", "/rest/admin/user", `{"usrId":"a","usrPw":"x"}`, 400, bad("usrNm is required")},
		{"blank name", "POST", "/rest/admin/user", `{"usrId":"a","usrNm":"  ","usrPw":"x"}`, 400, bad("usrNm is required")},
		{"no password", "POST", "/rest/admin/user", `{"usrId":"a","usrNm":"A"}`, 400, bad("usrPw is required")},
		{"bad id", "POST", "/rest/admin/user", `{"usrId":"a b","usrNm":"A","usrPw":"Good-pass1"}`, 400, bad("Invalid usrId: a b" + adminRule)},
		{"long id", "POST", "/rest/admin/user", `{"usrId":"` + strings.Repeat("u", 33) + `","usrNm":"A","usrPw":"Good-pass1"}`, 400,
			bad("Invalid usrId: " + strings.Repeat("u", 33) + adminRule)},
		{"long name", "POST", "/rest/admin/user", `{"usrId":"a","usrNm":"` + long + `","usrPw":"Good-pass1"}`, 400,
			bad("usrNm must be at most 100 characters long")},
		{"weak password", "POST", "/rest/admin/user", `{"usrId":"a","usrNm":"A","usrPw":"password"}`, 400,
			bad("usrPw must contain at least one digit and one special character")},
		{"duplicate", "POST", "/rest/admin/user", bobUser, 409, errJSON("CONFLICT", "User already exists: bob")},
		{"modify empty name", "PUT", "/rest/admin/user/bob", `{"usrNm":""}`, 400, bad("usrNm must not be empty")},
		{"modify empty password", "PUT", "/rest/admin/user/bob", `{"usrPw":""}`, 400, bad("usrPw must not be empty")},
		{"modify weak password", "PUT", "/rest/admin/user/bob", `{"usrPw":"12345678"}`, 400,
			bad("usrPw must contain at least one letter and one special character")},
		{"modify before lookup", "PUT", "/rest/admin/user/ghost", `{"usrPw":"short"}`, 400,
			bad("usrPw must be at least 8 characters long and contain at least one digit and one special character")},
		{"modify unknown", "PUT", "/rest/admin/user/ghost", `{"usrNm":"G"}`, 404, errJSON("NOT_FOUND", "User not found: ghost")},
		{"password is a number", "POST", "/rest/admin/user", `{"usrId":"a","usrNm":"A","usrPw":12345678}`, 400,
			bad("invalid JSON body: usrPw must be a string, not number")},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			expect(t, call(t, h, tc.method, admin(tc.path), tc.body), tc.status, tc.want)
		})
	}
	expect(t, call(t, h, "GET", admin("/rest/admin/user/bob"), ""), 200,
		`{"usrId":"bob","usrNm":"Bob Builder","roles":[],"createdAt":"2024-05-06"}`)
}

func TestPasswordPolicy(t *testing.T) {
	tests := map[string]string{ // password -> error ("" for accepted)
		"Build-1t!":                      "",
		"abcdefg1!":                      "",
		"pässwört1§":                     "", // non-ASCII letters and symbols count
		"with space 1":                   "usrPw must contain at least one special character",
		"a1!":                            "usrPw must be at least 8 characters long",
		"a":                              "usrPw must be at least 8 characters long and contain at least one digit and one special character",
		"        ":                       "usrPw must contain at least one letter, one digit and one special character",
		"!!!!!!!!":                       "usrPw must contain at least one letter and one digit",
		"abcdefgh":                       "usrPw must contain at least one digit and one special character",
		"abcdefg1":                       "usrPw must contain at least one special character",
		"abcdefg!":                       "usrPw must contain at least one digit",
		"1234567!":                       "usrPw must contain at least one letter",
		"tab\tPass1!":                    "usrPw must not contain control characters",
		strings.Repeat("a1!", 43):        "usrPw must be at most 128 characters long",
		strings.Repeat("a1!", 42) + "xx": "",
	}
	for pw, want := range tests {
		err := checkPassword(pw)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != want {
			t.Errorf("checkPassword(%q) = %q, want %q", pw, got, want)
		}
	}
}

func TestRoleLifecycle(t *testing.T) {
	h := newTestSim(t).Handler()
	expect(t, call(t, h, "GET", admin("/rest/admin/auth"), ""), 200, `{"auths":[]}`)
	// Action types: case-insensitive, de-duplicated, returned in the order READ, WRITE, EXECUTE.
	mustOK(t, h, "POST", admin("/rest/admin/auth"), opsRole)
	mustOK(t, h, "POST", admin("/rest/admin/auth"), `{"authId":"all","authNm":"All","actionTypes":["EXECUTE","WRITE","READ"]}`)
	expect(t, call(t, h, "GET", admin("/rest/admin/auth"), ""), 200, `{"auths":[`+
		`{"authId":"all","authNm":"All","actionTypes":["READ","WRITE","EXECUTE"]},`+
		`{"authId":"ops","authNm":"Operations","actionTypes":["READ","EXECUTE"]}]}`)
	expect(t, call(t, h, "GET", admin("/rest/admin/auth/ops"), ""), 200,
		`{"authId":"ops","authNm":"Operations","actionTypes":["READ","EXECUTE"],"description":"Run things"}`)
	expect(t, call(t, h, "GET", admin("/rest/admin/auth/all"), ""), 200,
		`{"authId":"all","authNm":"All","actionTypes":["READ","WRITE","EXECUTE"],"description":""}`)

	mustOK(t, h, "PUT", admin("/rest/admin/auth/ops"), `{"actionTypes":["write"]}`)
	expect(t, call(t, h, "GET", admin("/rest/admin/auth/ops"), ""), 200,
		`{"authId":"ops","authNm":"Operations","actionTypes":["WRITE"],"description":"Run things"}`)
	mustOK(t, h, "PUT", admin("/rest/admin/auth/ops"), `{"authNm":"Ops","description":"","actionTypes":null}`)
	expect(t, call(t, h, "GET", admin("/rest/admin/auth/ops"), ""), 200,
		`{"authId":"ops","authNm":"Ops","actionTypes":["WRITE"],"description":""}`)

	expect(t, call(t, h, "POST", admin("/rest/admin/auth"), opsRole), 409, errJSON("CONFLICT", "Role already exists: ops"))
	mustOK(t, h, "DELETE", admin("/rest/admin/auth/ops"), "")
	for _, c := range []struct{ method, path, body string }{
		{"GET", "/rest/admin/auth/ops", ""},
		{"PUT", "/rest/admin/auth/ops", `{"authNm":"x"}`},
		{"DELETE", "/rest/admin/auth/ops", ""},
	} {
		expect(t, call(t, h, c.method, admin(c.path), c.body), 404, errJSON("NOT_FOUND", "Role not found: ops"))
	}
}

func TestRoleErrors(t *testing.T) {
	h := newTestSim(t).Handler()
	mustOK(t, h, "POST", admin("/rest/admin/auth"), opsRole)
	bad := func(msg string) string { return errJSON("BAD_REQUEST", msg) }
	tests := []struct {
		name, method, path, body string
		status                   int
		want                     string
	}{
		{"no id", "POST", "/rest/admin/auth", `{"authNm":"A","actionTypes":["READ"]}`, 400, bad("authId is required")},
		{"no name", "POST", "/rest/admin/auth", `{"authId":"a","actionTypes":["READ"]}`, 400, bad("authNm is required")},
		{"no types", "POST", "/rest/admin/auth", `{"authId":"a","authNm":"A"}`, 400, bad("actionTypes is required")},
		{"null types", "POST", "/rest/admin/auth", `{"authId":"a","authNm":"A","actionTypes":null}`, 400, bad("actionTypes is required")},
		{"empty types", "POST", "/rest/admin/auth", `{"authId":"a","authNm":"A","actionTypes":[]}`, 400,
			bad("actionTypes must contain at least one of READ, WRITE, EXECUTE")},
		{"unknown type", "POST", "/rest/admin/auth", `{"authId":"a","authNm":"A","actionTypes":["READ","delete"]}`, 400,
			bad("Invalid actionType: delete (allowed: READ, WRITE, EXECUTE)")},
		{"types as a string", "POST", "/rest/admin/auth", `{"authId":"a","authNm":"A","actionTypes":"READ"}`, 400,
			bad("invalid JSON body: actionTypes must be an array, not string")},
		{"bad id", "POST", "/rest/admin/auth", `{"authId":"a/b","authNm":"A","actionTypes":["READ"]}`, 400,
			bad("Invalid authId: a/b" + adminRule)},
		{"long name", "POST", "/rest/admin/auth", `{"authId":"a","authNm":"` + strings.Repeat("x", 101) + `","actionTypes":["READ"]}`, 400,
			bad("authNm must be at most 100 characters long")},
		{"duplicate", "POST", "/rest/admin/auth", opsRole, 409, errJSON("CONFLICT", "Role already exists: ops")},
		{"modify empty name", "PUT", "/rest/admin/auth/ops", `{"authNm":" "}`, 400, bad("authNm must not be empty")},
		{"modify empty types", "PUT", "/rest/admin/auth/ops", `{"actionTypes":[]}`, 400,
			bad("actionTypes must contain at least one of READ, WRITE, EXECUTE")},
		{"modify bad type", "PUT", "/rest/admin/auth/ops", `{"actionTypes":["ADMIN"]}`, 400,
			bad("Invalid actionType: ADMIN (allowed: READ, WRITE, EXECUTE)")},
		{"modify unknown", "PUT", "/rest/admin/auth/nope", `{"authNm":"x"}`, 404, errJSON("NOT_FOUND", "Role not found: nope")},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			expect(t, call(t, h, tc.method, admin(tc.path), tc.body), tc.status, tc.want)
		})
	}
	expect(t, call(t, h, "GET", admin("/rest/admin/auth/ops"), ""), 200,
		`{"authId":"ops","authNm":"Operations","actionTypes":["READ","EXECUTE"],"description":"Run things"}`)
}

func TestGrantAndRevoke(t *testing.T) {
	h := newTestSim(t).Handler()
	mustOK(t, h, "POST", admin("/rest/admin/user"), bobUser)
	mustOK(t, h, "POST", admin("/rest/admin/user"), `{"usrId":"carl","usrNm":"Carl","usrPw":"Carl-pass1"}`)
	mustOK(t, h, "POST", admin("/rest/admin/auth"), opsRole)
	mustOK(t, h, "POST", admin("/rest/admin/auth"), `{"authId":"audit","authNm":"Auditors","actionTypes":["READ"]}`)

	mustOK(t, h, "POST", admin("/rest/admin/user/bob/auth/grant"), `{"authId":"ops"}`)
	mustOK(t, h, "POST", admin("/rest/admin/user/bob/auth/grant"), `{"authId":"audit"}`)
	mustOK(t, h, "POST", admin("/rest/admin/user/bob/auth/grant"), `{"authId":"ops"}`) // again: no change
	mustOK(t, h, "POST", admin("/rest/admin/user/carl/auth/grant"), `{"authId":"ops"}`)
	expect(t, call(t, h, "GET", admin("/rest/admin/user/bob/auth"), ""), 200,
		`{"auths":[{"authId":"audit","authNm":"Auditors"},{"authId":"ops","authNm":"Operations"}]}`)
	expect(t, call(t, h, "GET", admin("/rest/admin/users"), ""), 200, `{"users":[`+
		`{"usrId":"bob","usrNm":"Bob Builder","roles":["audit","ops"]},{"usrId":"carl","usrNm":"Carl","roles":["ops"]}]}`)
	// Renaming a role shows in the user's roles.
	mustOK(t, h, "PUT", admin("/rest/admin/auth/audit"), `{"authNm":"Audit team"}`)
	expect(t, call(t, h, "GET", admin("/rest/admin/user/bob/auth"), ""), 200,
		`{"auths":[{"authId":"audit","authNm":"Audit team"},{"authId":"ops","authNm":"Operations"}]}`)

	// A granted role cannot be deleted.
	expect(t, call(t, h, "DELETE", admin("/rest/admin/auth/ops"), ""), 409,
		errJSON("CONFLICT", "Role ops is granted to user(s) bob, carl; revoke it first"))

	mustOK(t, h, "POST", admin("/rest/admin/user/bob/auth/revoke"), `{"authId":"ops"}`)
	mustOK(t, h, "POST", admin("/rest/admin/user/bob/auth/revoke"), `{"authId":"ops"}`) // not granted: no change
	expect(t, call(t, h, "GET", admin("/rest/admin/user/bob"), ""), 200,
		`{"usrId":"bob","usrNm":"Bob Builder","roles":["audit"],"createdAt":"2024-05-06"}`)
	// Deleting a user drops its grants.
	mustOK(t, h, "DELETE", admin("/rest/admin/user/carl"), "")
	mustOK(t, h, "DELETE", admin("/rest/admin/auth/ops"), "")

	bad := func(msg string) string { return errJSON("BAD_REQUEST", msg) }
	for _, tc := range []struct {
		name, path, body string
		status           int
		want             string
	}{
		{"no authId", "/rest/admin/user/bob/auth/grant", `{}`, 400, bad("authId is required")},
		{"no body", "/rest/admin/user/bob/auth/revoke", ``, 415, errJSON("UNSUPPORTED_MEDIA_TYPE", "Content-Type must be application/json")},
		{"unknown role", "/rest/admin/user/bob/auth/grant", `{"authId":"ops"}`, 404, errJSON("NOT_FOUND", "Role not found: ops")},
		{"revoke unknown role", "/rest/admin/user/bob/auth/revoke", `{"authId":"ops"}`, 404, errJSON("NOT_FOUND", "Role not found: ops")},
		{"unknown user", "/rest/admin/user/carl/auth/grant", `{"authId":"audit"}`, 404, errJSON("NOT_FOUND", "User not found: carl")},
		{"unknown user and role", "/rest/admin/user/carl/auth/revoke", `{"authId":"nope"}`, 404, errJSON("NOT_FOUND", "User not found: carl")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			expect(t, call(t, h, "POST", admin(tc.path), tc.body), tc.status, tc.want)
		})
	}
}

func TestAdminWritesNeedAdmin(t *testing.T) {
	h := newTestSim(t, func(o *Options) { o.Seed = SeedDemo }).Handler()
	for _, c := range []struct{ method, path, body string }{
		{"POST", "/rest/admin/user", bobUser},
		{"PUT", "/rest/admin/user/operator", `{"usrNm":"x"}`},
		{"DELETE", "/rest/admin/user/operator", ""},
		{"POST", "/rest/admin/user/operator/auth/grant", `{"authId":"admins"}`},
		{"POST", "/rest/admin/user/operator/auth/revoke", `{"authId":"operators"}`},
		{"POST", "/rest/admin/auth", opsRole},
		{"PUT", "/rest/admin/auth/operators", `{"authNm":"x"}`},
		{"DELETE", "/rest/admin/auth/auditors", ""},
	} {
		expect(t, call(t, h, c.method, viewer(c.path), c.body), 403, errJSON("FORBIDDEN", "Access denied"))
	}
	for _, p := range []string{"/rest/admin/users", "/rest/admin/user/operator", "/rest/admin/user/operator/auth",
		"/rest/admin/auth", "/rest/admin/auth/operators", "/rest/admin/actionTraceLogList"} {
		expect(t, call(t, h, "GET", viewer(p), ""), 200, "")
	}
	expect(t, call(t, h, "GET", admin("/rest/admin/user/operator"), ""), 200,
		`{"usrId":"operator","usrNm":"Shop Operator","roles":["operators"],"createdAt":"2024-05-06"}`)
}

func TestAdminDemoSeed(t *testing.T) {
	h := newTestSim(t, func(o *Options) { o.Seed = SeedDemo }).Handler()
	expect(t, call(t, h, "GET", admin("/rest/admin/users"), ""), 200, `{"users":[`+
		`{"usrId":"operator","usrNm":"Shop Operator","roles":["operators"]},`+
		`{"usrId":"ops.admin","usrNm":"Operations Admin","roles":["admins"]}]}`)
	expect(t, call(t, h, "GET", admin("/rest/admin/auth"), ""), 200, `{"auths":[`+
		`{"authId":"admins","authNm":"Administrators","actionTypes":["READ","WRITE","EXECUTE"]},`+
		`{"authId":"auditors","authNm":"Auditors","actionTypes":["READ"]},`+
		`{"authId":"operators","authNm":"Operators","actionTypes":["READ","EXECUTE"]}]}`)
	expect(t, call(t, h, "GET", admin("/rest/admin/auth/operators"), ""), 200,
		`{"authId":"operators","authNm":"Operators","actionTypes":["READ","EXECUTE"],"description":"Read everything, start and stop servers"}`)
	expect(t, call(t, h, "GET", admin("/rest/admin/user/ops.admin/auth"), ""), 200,
		`{"auths":[{"authId":"admins","authNm":"Administrators"}]}`)
}
