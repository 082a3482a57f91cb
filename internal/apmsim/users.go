package apmsim

import (
	"net/http"
	"strings"
	"unicode"
	"unicode/utf8"
)

// adminArea serves the users and roles of /rest/admin (spec 4.7); the action trace log
// is traceLogArea (trace_logs.go). Users are identified by usrId, roles by authId; a
// user's roles are a list of authIds, so neither can be renamed (only usrNm and authNm
// change).
type adminArea struct{ s *Sim }

var adminState = newExtKey[adminData]("admin")

type adminData struct {
	Users map[string]*adminUser `json:"users"` // by usrId
	Roles map[string]*adminRole `json:"roles"` // by authId
}

func (d *adminData) init() {
	d.Users = map[string]*adminUser{}
	d.Roles = map[string]*adminRole{}
}

// adminUser keeps only a fingerprint of the password: it is never returned, and the
// state file must not hold it either.
type adminUser struct {
	ID   string `json:"usrId"`
	Name string `json:"usrNm"`
	// Password is the password's fingerprint; the JSON name is that of older versions,
	// see database.Password.
	Password  fingerprint `json:"usrPwSha256"`
	Roles     []string    `json:"roles"`     // authIds, sorted
	CreatedAt string      `json:"createdAt"` // yyyy-MM-dd, the manager's local date
}

type adminRole struct {
	ID          string   `json:"authId"`
	Name        string   `json:"authNm"`
	ActionTypes []string `json:"actionTypes"` // canonical order: READ, WRITE, EXECUTE
	Description string   `json:"description"`
}

// Rules of users and roles (the spec gives only the password policy, in api/decisions.md).
const (
	maxAdminID     = 32
	adminIDRule    = "1-32 characters: letters, digits, '.', '-' and '_'"
	maxDisplayName = 100 // usrNm, authNm
	minPasswordLen = 8
	maxPasswordLen = 128
	userDateLayout = "2006-01-02"
	demoPassword   = "Demo-Passw0rd!" // the demo seed's users and databases
)

// actionTypeOrder is the canonical order in which a role's actionTypes are returned;
// actionTypesText names them in messages.
var (
	actionTypeOrder = []string{"READ", "WRITE", "EXECUTE"}
	actionTypesText = strings.Join(actionTypeOrder, ", ")
)

func (a adminArea) register(r *router) {
	r.handle("GET /rest/admin/users", a.listUsers)
	r.handle("GET /rest/admin/user/{usrId}", a.getUser)
	r.handle("POST /rest/admin/user", a.createUser)
	r.handle("PUT /rest/admin/user/{usrId}", a.modifyUser)
	r.handle("DELETE /rest/admin/user/{usrId}", a.deleteUser)
	r.handle("POST /rest/admin/user/{usrId}/auth/grant", a.grant)
	r.handle("POST /rest/admin/user/{usrId}/auth/revoke", a.revoke)
	r.handle("GET /rest/admin/user/{usrId}/auth", a.userRoles)
	r.handle("GET /rest/admin/auth", a.listRoles)
	r.handle("POST /rest/admin/auth", a.createRole)
	r.handle("GET /rest/admin/auth/{authId}", a.getRole)
	r.handle("PUT /rest/admin/auth/{authId}", a.modifyRole)
	r.handle("DELETE /rest/admin/auth/{authId}", a.deleteRole)
}

// --- users ---

// UserPasswordMatches reports whether the user usrID exists and password is its
// password. It is for tests: the sim keeps only a fingerprint, which no answer shows.
func (s *Sim) UserPasswordMatches(usrID, password string) bool {
	var fp fingerprint
	s.read(func(wd *world) {
		if u := adminState.of(wd).Users[usrID]; u != nil {
			fp = u.Password
		}
	})
	return fp != "" && fp.matches("user/"+usrID, password) // slow: outside the lock
}

type userJSON struct {
	UsrID string   `json:"usrId"`
	UsrNm string   `json:"usrNm"`
	Roles []string `json:"roles"`
}

type userDetailJSON struct {
	userJSON
	CreatedAt string `json:"createdAt"`
}

type authRefJSON struct {
	AuthID string `json:"authId"`
	AuthNm string `json:"authNm"`
}

func (u *adminUser) summary() userJSON {
	return userJSON{UsrID: u.ID, UsrNm: u.Name, Roles: append([]string{}, u.Roles...)}
}

func (a adminArea) listUsers(w http.ResponseWriter, _ *http.Request) {
	serveList(a.s, w, "users", func(wd *world) map[string]*adminUser { return adminState.of(wd).Users },
		func(u *adminUser) string { return u.ID }, (*adminUser).summary)
}

func (a adminArea) getUser(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("usrId")
	var out userDetailJSON
	err := a.readUser(id, func(wd *world, u *adminUser) {
		out = userDetailJSON{userJSON: u.summary(), CreatedAt: u.CreatedAt}
	})
	if err != nil {
		writeErr(w, err)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

// userRoles lists the roles granted to a user with their names, sorted by authId.
func (a adminArea) userRoles(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("usrId")
	var out []authRefJSON
	err := a.readUser(id, func(wd *world, u *adminUser) {
		out = make([]authRefJSON, 0, len(u.Roles))
		for _, authID := range u.Roles {
			if role := adminState.of(wd).Roles[authID]; role != nil {
				out = append(out, authRefJSON{AuthID: role.ID, AuthNm: role.Name})
			}
		}
	})
	if err != nil {
		writeErr(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"auths": out})
}

// readUser runs fn under the read lock with the user called id, or returns a 404.
func (a adminArea) readUser(id string, fn func(wd *world, u *adminUser)) error {
	var err error
	a.s.read(func(wd *world) {
		u := adminState.of(wd).Users[id]
		if u == nil {
			err = notFound("User not found: %s", id)
			return
		}
		fn(wd, u)
	})
	return err
}

type createUserBody struct {
	UsrID string `json:"usrId"`
	UsrNm string `json:"usrNm"`
	UsrPw string `json:"usrPw"`
}

// check validates a new user: required fields (in body order), then the id rule, the
// name length and the password policy.
func (b createUserBody) check() error {
	switch {
	case b.UsrID == "":
		return badRequest("usrId is required")
	case strings.TrimSpace(b.UsrNm) == "":
		return badRequest("usrNm is required")
	case b.UsrPw == "":
		return badRequest("usrPw is required")
	}
	if !nameOK(b.UsrID, maxAdminID, ".-_") {
		return badRequest("Invalid usrId: %s (allowed: %s)", b.UsrID, adminIDRule)
	}
	if err := checkDisplayName("usrNm", b.UsrNm); err != nil {
		return err
	}
	return checkPassword(b.UsrPw)
}

func checkDisplayName(field, v string) error {
	if utf8.RuneCountInString(v) > maxDisplayName {
		return badRequest("%s must be at most %d characters long", field, maxDisplayName)
	}
	return nil
}

// checkPassword enforces the policy of api/decisions.md: at least 8 characters with a
// letter, a digit and a special character (anything but a letter, a digit or white
// space). The message names everything that is missing, so one correction suffices.
func checkPassword(pw string) error {
	var letter, digit, special bool
	n := 0
	for _, r := range pw {
		n++
		switch {
		case unicode.IsControl(r):
			return badRequest("usrPw must not contain control characters")
		case unicode.IsLetter(r):
			letter = true
		case unicode.IsDigit(r):
			digit = true
		case !unicode.IsSpace(r):
			special = true
		}
	}
	if n > maxPasswordLen {
		return badRequest("usrPw must be at most %d characters long", maxPasswordLen)
	}
	var missing []string
	for _, m := range []struct {
		lacks bool
		what  string
	}{{!letter, "one letter"}, {!digit, "one digit"}, {!special, "one special character"}} {
		if m.lacks {
			missing = append(missing, m.what)
		}
	}
	short := n < minPasswordLen
	switch {
	case short && len(missing) > 0:
		return badRequest("usrPw must be at least %d characters long and contain at least %s", minPasswordLen, joinWithAnd(missing))
	case short:
		return badRequest("usrPw must be at least %d characters long", minPasswordLen)
	case len(missing) > 0:
		return badRequest("usrPw must contain at least %s", joinWithAnd(missing))
	}
	return nil
}

// joinWithAnd joins "a", "b", "c" as "a, b and c".
func joinWithAnd(items []string) string {
	if len(items) <= 1 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}

func (a adminArea) createUser(w http.ResponseWriter, r *http.Request) {
	var body createUserBody
	if err := decodeBody(r, &body); err != nil {
		writeErr(w, err)
		return
	}
	if err := body.check(); err != nil {
		writeErr(w, err)
		return
	}
	pw := newFingerprint(body.UsrPw) // slow: before taking the lock
	err := a.s.update(func(wd *world) error {
		st := adminState.of(wd)
		if st.Users[body.UsrID] != nil {
			return conflict("User already exists: %s", body.UsrID)
		}
		st.addUser(&adminUser{
			ID: body.UsrID, Name: body.UsrNm, Password: pw,
			Roles: []string{}, CreatedAt: a.s.now().Format(userDateLayout),
		})
		return nil
	})
	answer(w, err)
}

// modifyUserBody holds the changeable fields; absent (or null) means unchanged.
type modifyUserBody struct {
	UsrNm *string `json:"usrNm"`
	UsrPw *string `json:"usrPw"`
}

func (b modifyUserBody) check() error {
	if b.UsrNm != nil {
		if strings.TrimSpace(*b.UsrNm) == "" {
			return badRequest("usrNm must not be empty")
		}
		if err := checkDisplayName("usrNm", *b.UsrNm); err != nil {
			return err
		}
	}
	if b.UsrPw != nil {
		if *b.UsrPw == "" {
			return badRequest("usrPw must not be empty")
		}
		return checkPassword(*b.UsrPw)
	}
	return nil
}

func (a adminArea) modifyUser(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("usrId")
	var body modifyUserBody
	if err := decodeBody(r, &body); err != nil {
		writeErr(w, err)
		return
	}
	if err := body.check(); err != nil {
		writeErr(w, err)
		return
	}
	var pw fingerprint
	if body.UsrPw != nil {
		pw = newFingerprint(*body.UsrPw) // slow: before taking the lock
	}
	err := a.updateUser(id, func(_ *adminData, u *adminUser) error {
		if body.UsrNm != nil {
			u.Name = *body.UsrNm
		}
		if body.UsrPw != nil {
			u.Password = pw
		}
		return nil
	})
	answer(w, err)
}

// deleteUser removes a user together with its grants (they are part of the user).
func (a adminArea) deleteUser(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("usrId")
	err := a.updateUser(id, func(st *adminData, u *adminUser) error {
		delete(st.Users, u.ID)
		return nil
	})
	answer(w, err)
}

// updateUser runs fn under the write lock with the user called id, or returns a 404.
func (a adminArea) updateUser(id string, fn func(st *adminData, u *adminUser) error) error {
	return a.s.update(func(wd *world) error {
		st := adminState.of(wd)
		u := st.Users[id]
		if u == nil {
			return notFound("User not found: %s", id)
		}
		return fn(st, u)
	})
}

func (d *adminData) addUser(u *adminUser) {
	if d.Users == nil {
		d.Users = map[string]*adminUser{}
	}
	d.Users[u.ID] = u
}

// seed adds the demo roles admins (READ, WRITE, EXECUTE), operators (READ, EXECUTE) and
// the ungranted auditors (READ), and the users ops.admin (admins) and operator
// (operators), both with the password demoPassword.
func (a adminArea) seed(wd *world, seed string) {
	if seed != SeedDemo {
		return
	}
	st := adminState.of(wd)
	st.addRole(&adminRole{ID: "admins", Name: "Administrators", ActionTypes: []string{"READ", "WRITE", "EXECUTE"},
		Description: "Full access"})
	st.addRole(&adminRole{ID: "auditors", Name: "Auditors", ActionTypes: []string{"READ"},
		Description: "Read-only access"})
	st.addRole(&adminRole{ID: "operators", Name: "Operators", ActionTypes: []string{"READ", "EXECUTE"},
		Description: "Read everything, start and stop servers"})
	today := a.s.now().Format(userDateLayout)
	for _, u := range []struct{ id, name, role string }{
		{"ops.admin", "Operations Admin", "admins"},
		{"operator", "Shop Operator", "operators"},
	} {
		st.addUser(&adminUser{ID: u.id, Name: u.name, Password: demoFingerprint(),
			Roles: []string{u.role}, CreatedAt: today})
	}
}
