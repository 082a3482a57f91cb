package engine

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
)

func (r *Resource[T, C]) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	defer r.identify(ctx, resp.Identity, &resp.State.Raw)
	pieces, id, ok := r.importedBy(req, &resp.Diagnostics)
	if !ok {
		return
	}
	m, diags := r.data.Conn()
	resp.Diagnostics.Append(diags...)
	if diags.HasError() {
		return
	}
	resolved := make([]string, len(pieces))
	for i, p := range r.Type.ImportID.Parts {
		resolved[i] = pieces[i]
		if p.Resolve != nil {
			var err error
			if resolved[i], err = p.Resolve(ctx, m, pieces[i]); err != nil {
				resp.Diagnostics.AddError("Cannot import apm_"+r.Type.Name+" "+id, Explain(err))
				return
			}
		}
	}
	// Import blocks of one plan are imported by one provider process: a second block
	// importing the same object would make two resources manage it.
	if !r.data.importing.claim("apm_" + r.Type.Name + " " + strings.Join(resolved, "/")) {
		resp.Diagnostics.AddError("Duplicate import of apm_"+r.Type.Name+" "+id, fmt.Sprintf(
			"The object %q is imported by more than one resource in this configuration. Each object must be managed by one resource; remove one of the import blocks.", id))
		return
	}
	for i, p := range r.Type.ImportID.Parts {
		resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root(p.Attr), resolved[i])...)
	}
	resp.Diagnostics.Append(resp.Private.SetKey(ctx, importedKey, []byte("true"))...)
}
