package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// privateStore is a resource's private state that a response carries (the framework's
// type is internal).
type privateStore interface {
	privateState
	SetKey(ctx context.Context, key string, value []byte) diag.Diagnostics
}

// takeOverMoved finishes, at the first read of a moved object (move_state.go), what an
// import does: it resolves the import ID that the move recorded into the state's identity
// attributes (a system's name into its id), as ImportState does, and forgets it. The
// error is one of the resolution, which isGone when the object's parent is gone.
func (r *Resource[T, C]) takeOverMoved(ctx context.Context, m C, state Attrs, private privateStore, diags *diag.Diagnostics) (Attrs, error) {
	raw, _ := private.GetKey(ctx, movedKey)
	if len(raw) == 0 {
		return state, nil
	}
	var pieces []string
	if err := json.Unmarshal(raw, &pieces); err != nil || len(pieces) != len(r.Type.ImportID.Parts) {
		return state, fmt.Errorf("the move recorded the import ID %s, which is not one of apm_%s's", raw, r.Type.Name)
	}
	for i, p := range r.Type.ImportID.Parts {
		v := pieces[i]
		if p.Resolve != nil {
			var err error
			if v, err = p.Resolve(ctx, m, v); err != nil {
				return state, fmt.Errorf("taking over the moved object %s: %w", strings.Join(pieces, "/"), err)
			}
		}
		state = state.With(p.Attr, tftypes.NewValue(tftypes.String, v))
	}
	diags.Append(private.SetKey(ctx, movedKey, nil)...)
	return state, nil
}

// unreadMove refuses the plan of a moved object that no refresh has read: its identity
// attributes still hold what the source's path said (a system's name where its id
// belongs), which the configuration would replace.
func (r *Resource[T, C]) unreadMove(ctx context.Context, private privateState, diags *diag.Diagnostics) bool {
	if raw, _ := private.GetKey(ctx, movedKey); len(raw) == 0 {
		return false
	}
	diags.AddError("apm_"+r.Type.Name+" moved without a refresh",
		"This object was moved from a restapi_object or restful_resource and has not been read from the manager yet, which the move needs "+
			"to finish (it resolves the object's identity). Plan without -refresh=false.")
	return true
}
