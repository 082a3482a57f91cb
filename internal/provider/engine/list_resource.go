package engine

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	listschema "github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// List resources (`terraform query`, Terraform 1.14 and later): one for every managed
// type, made from the list data source whose items are its objects (Imports): the same
// filters, the same list call, and each item flattened by the resource type's own fields,
// its identity filled as after a read. With include_resource, each object is read as the
// resource reads it (one GET each), so that the object is exactly what an import would
// record and what config generation starts from.

// listResource is the one implementation of list.ListResource.
type listResource[T, C any] struct {
	res     *Resource[T, C]
	filters map[string]listschema.Attribute
	list    func(ctx context.Context, m C, config Attrs) ([]T, error)
	sortBy  func(*T) string
}

var (
	_ list.ListResourceWithConfigure = (*listResource[struct{}, struct{}])(nil)
)

// newListResource is the list resource of the data source t's items.
func newListResource[T, C any](t ListDataSourceType[T, C]) func() list.ListResource {
	filters := make(map[string]listschema.Attribute, len(t.Filters))
	for name, a := range t.Filters {
		filters[name] = listFilter(t.Name, name, a)
	}
	return func() list.ListResource {
		return &listResource[T, C]{res: &Resource[T, C]{Type: t.Imports.typ}, filters: filters, list: t.List, sortBy: t.SortBy}
	}
}

// listFilter is a data source filter as a list block's config attribute. Filters are
// strings (the parents that a list runs under); another kind is a declaration error.
func listFilter(dataSource, name string, a schema.Attribute) listschema.Attribute {
	s, ok := a.(schema.StringAttribute)
	if !ok {
		panic(fmt.Sprintf("engine: apm_%s: filter %s is a %T; a list resource takes string filters", dataSource, name, a))
	}
	return listschema.StringAttribute{
		MarkdownDescription: s.MarkdownDescription, Required: s.Required, Optional: s.Optional, Validators: s.Validators,
	}
}

func (l *listResource[T, C]) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_" + l.res.Type.Name
}

func (l *listResource[T, C]) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = listschema.Schema{
		MarkdownDescription: fmt.Sprintf("Lists the `apm_%s` objects of the manager, with their identities, for `terraform query`.", l.res.Type.Name),
		Attributes:          l.filters,
	}
}

func (l *listResource[T, C]) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	l.res.data = configured[C](req.ProviderData, &resp.Diagnostics)
}

func (l *listResource[T, C]) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	var diags diag.Diagnostics
	m, d := l.res.data.Conn()
	diags.Append(d...)
	diags.Append(l.res.data.requireKey()...)
	config, err := AttrsOf(req.Config.Raw)
	if err != nil {
		diags.AddError("Invalid configuration", err.Error())
	}
	if diags.HasError() {
		stream.Results = list.ListResultsStreamDiagnostics(diags)
		return
	}
	objs, err := l.list(ctx, m, config)
	switch {
	case GoneWithParent(err):
		// What lives under an object that is gone is nothing, as the data source says.
		diags.AddWarning("apm_"+l.res.Type.Name+": nothing to list", Explain(err))
		stream.Results = list.ListResultsStreamDiagnostics(diags)
		return
	case err != nil:
		diags.AddError("Failed to list apm_"+l.res.Type.Name, Explain(err))
		stream.Results = list.ListResultsStreamDiagnostics(diags)
		return
	}
	if l.sortBy != nil {
		slices.SortStableFunc(objs, func(a, b T) int { return strings.Compare(l.sortBy(&a), l.sortBy(&b)) })
	}
	typ := req.ResourceSchema.Type().TerraformType(ctx).(tftypes.Object) //nolint:forcetypeassert // a schema is an object
	stream.Results = func(push func(list.ListResult) bool) {
		for i := range objs {
			if req.Limit > 0 && int64(i) >= req.Limit {
				return
			}
			if !push(l.result(ctx, m, req, typ, &objs[i])) {
				return
			}
		}
	}
}

// result is one listed object: its identity and name, and with include_resource the
// object as the resource reads it.
func (l *listResource[T, C]) result(ctx context.Context, m C, req list.ListRequest, typ tftypes.Object, obj *T) list.ListResult {
	result := req.NewListResult(ctx)
	state := flattenAs(typ, l.res.Type.Fields, obj, Attrs{}, true)
	attrs, err := AttrsOf(state)
	if err != nil {
		result.Diagnostics.AddError("Invalid list item", err.Error())
		return result
	}
	result.DisplayName = l.res.Type.Describe(attrs)
	if req.IncludeResource {
		read, err := l.res.Type.Read(ctx, m, attrs)
		if err != nil {
			result.Diagnostics.Append(callError("read "+result.DisplayName, err))
			return result
		}
		state = flattenAs(typ, l.res.Type.Fields, read, attrs, true)
		result.Resource.Raw = state
	}
	l.res.identify(ctx, result.Identity, &state)
	return result
}
