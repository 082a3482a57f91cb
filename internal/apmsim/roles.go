package apmsim

import (
	"net/http"
	"slices"
	"strings"
)

// Roles (auths): GET, POST, PUT and DELETE under /rest/admin/auth.

type roleJSON struct {
	AuthID      string   `json:"authId"`
	AuthNm      string   `json:"authNm"`
	ActionTypes []string `json:"actionTypes"`
}

type roleDetailJSON struct {
	roleJSON
	Description string `json:"description"`
}

func (ro *adminRole) summary() roleJSON {
	return roleJSON{AuthID: ro.ID, AuthNm: ro.Name, ActionTypes: append([]string{}, ro.ActionTypes...)}
}

func (a adminArea) listRoles(w http.ResponseWriter, _ *http.Request) {
	serveList(a.s, w, "auths", func(wd *world) map[string]*adminRole { return adminState.of(wd).Roles },
		func(ro *adminRole) string { return ro.ID }, (*adminRole).summary)
}

func (a adminArea) getRole(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("authId")
	var out roleDetailJSON
	var err error
	a.s.read(func(wd *world) {
		ro := adminState.of(wd).Roles[id]
		if ro == nil {
			err = notFound("Role not found: %s", id)
			return
		}
		out = roleDetailJSON{roleJSON: ro.summary(), Description: ro.Description}
	})
	if err != nil {
		writeErr(w, err)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

// normalizeActionTypes upper-cases, checks and de-duplicates action types and returns
// them in the canonical order.
func normalizeActionTypes(in []string) ([]string, error) {
	if len(in) == 0 {
		return nil, badRequest("actionTypes must contain at least one of %s", actionTypesText)
	}
	seen := map[string]bool{}
	for _, v := range in {
		t := strings.ToUpper(strings.TrimSpace(v))
		if !slices.Contains(actionTypeOrder, t) {
			return nil, badRequest("Invalid actionType: %s (allowed: %s)", v, actionTypesText)
		}
		seen[t] = true
	}
	out := make([]string, 0, len(seen))
	for _, t := range actionTypeOrder {
		if seen[t] {
			out = append(out, t)
		}
	}
	return out, nil
}

type createRoleBody struct {
	AuthID      string    `json:"authId"`
	AuthNm      string    `json:"authNm"`
	ActionTypes *[]string `json:"actionTypes"` // nil: absent or null
	Description string    `json:"description"`
}

// check validates a new role and returns it with normalised action types.
func (b createRoleBody) check() (*adminRole, error) {
	switch {
	case b.AuthID == "":
		return nil, badRequest("authId is required")
	case strings.TrimSpace(b.AuthNm) == "":
		return nil, badRequest("authNm is required")
	case b.ActionTypes == nil:
		return nil, badRequest("actionTypes is required")
	}
	if !nameOK(b.AuthID, maxAdminID, ".-_") {
		return nil, badRequest("Invalid authId: %s (allowed: %s)", b.AuthID, adminIDRule)
	}
	if err := checkDisplayName("authNm", b.AuthNm); err != nil {
		return nil, err
	}
	types, err := normalizeActionTypes(*b.ActionTypes)
	if err != nil {
		return nil, err
	}
	return &adminRole{ID: b.AuthID, Name: b.AuthNm, ActionTypes: types, Description: b.Description}, nil
}

func (a adminArea) createRole(w http.ResponseWriter, r *http.Request) {
	var body createRoleBody
	if err := decodeBody(r, &body); err != nil {
		writeErr(w, err)
		return
	}
	ro, err := body.check()
	if err != nil {
		writeErr(w, err)
		return
	}
	err = a.s.update(func(wd *world) error {
		st := adminState.of(wd)
		if st.Roles[ro.ID] != nil {
			return conflict("Role already exists: %s", ro.ID)
		}
		st.addRole(ro)
		return nil
	})
	answer(w, err)
}

// modifyRoleBody holds the changeable fields; absent (or null) means unchanged, and a
// description of "" clears it.
type modifyRoleBody struct {
	AuthNm      *string   `json:"authNm"`
	ActionTypes *[]string `json:"actionTypes"`
	Description *string   `json:"description"`
}

// check validates the body and returns the normalised action types (nil: unchanged).
func (b modifyRoleBody) check() ([]string, error) {
	if b.AuthNm != nil {
		if strings.TrimSpace(*b.AuthNm) == "" {
			return nil, badRequest("authNm must not be empty")
		}
		if err := checkDisplayName("authNm", *b.AuthNm); err != nil {
			return nil, err
		}
	}
	if b.ActionTypes == nil {
		return nil, nil
	}
	return normalizeActionTypes(*b.ActionTypes)
}

func (a adminArea) modifyRole(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("authId")
	var body modifyRoleBody
	if err := decodeBody(r, &body); err != nil {
		writeErr(w, err)
		return
	}
	types, err := body.check()
	if err != nil {
		writeErr(w, err)
		return
	}
	err = a.s.update(func(wd *world) error {
		ro := adminState.of(wd).Roles[id]
		if ro == nil {
			return notFound("Role not found: %s", id)
		}
		if body.AuthNm != nil {
			ro.Name = *body.AuthNm
		}
		if types != nil {
			ro.ActionTypes = types
		}
		if body.Description != nil {
			ro.Description = *body.Description
		}
		return nil
	})
	answer(w, err)
}

// deleteRole refuses to delete a role that is still granted, rather than silently
// taking permissions away from users: the grants must be revoked first.
func (a adminArea) deleteRole(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("authId")
	err := a.s.update(func(wd *world) error {
		st := adminState.of(wd)
		if st.Roles[id] == nil {
			return notFound("Role not found: %s", id)
		}
		if holders := st.holdersOf(id); len(holders) > 0 {
			return conflict("Role %s is granted to user(s) %s; revoke it first", id, strings.Join(holders, ", "))
		}
		delete(st.Roles, id)
		return nil
	})
	answer(w, err)
}

// holdersOf returns the sorted usrIds of the users granted role authID.
func (d *adminData) holdersOf(authID string) []string {
	var out []string
	for _, u := range d.Users {
		if slices.Contains(u.Roles, authID) {
			out = append(out, u.ID)
		}
	}
	slices.Sort(out)
	return out
}

func (d *adminData) addRole(ro *adminRole) {
	if d.Roles == nil {
		d.Roles = map[string]*adminRole{}
	}
	d.Roles[ro.ID] = ro
}
