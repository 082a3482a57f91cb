package apmsim

import (
	"net/http"
	"slices"
)

// The grants of roles to users: POST /rest/admin/user/{usrId}/auth/grant and revoke.

type authIDBody struct {
	AuthID string `json:"authId"`
}

// grant gives a role to a user. Granting a role the user has already is a success that
// changes nothing, so that a retried grant does not fail.
func (a adminArea) grant(w http.ResponseWriter, r *http.Request) {
	a.changeGrant(w, r, func(u *adminUser, authID string) {
		if !slices.Contains(u.Roles, authID) {
			u.Roles = append(u.Roles, authID)
			slices.Sort(u.Roles)
		}
	})
}

// revoke takes a role from a user. Revoking a role the user does not have is a success
// that changes nothing (the role must exist, though), for the same reason.
func (a adminArea) revoke(w http.ResponseWriter, r *http.Request) {
	a.changeGrant(w, r, func(u *adminUser, authID string) {
		u.Roles = slices.DeleteFunc(u.Roles, func(id string) bool { return id == authID })
	})
}

// changeGrant validates a grant or revoke (body, then user, then role) and applies change.
func (a adminArea) changeGrant(w http.ResponseWriter, r *http.Request, change func(u *adminUser, authID string)) {
	id := r.PathValue("usrId")
	var body authIDBody
	if err := decodeBody(r, &body); err != nil {
		writeErr(w, err)
		return
	}
	if body.AuthID == "" {
		writeErr(w, badRequest("authId is required"))
		return
	}
	err := a.updateUser(id, func(st *adminData, u *adminUser) error {
		if st.Roles[body.AuthID] == nil {
			return notFound("Role not found: %s", body.AuthID)
		}
		change(u, body.AuthID)
		return nil
	})
	answer(w, err)
}
