package engine

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// DataSourceType declares a data source that reads one object. Its attributes are the
// object's fields of the detail view; keys are the fields the user gives to find it.
type DataSourceType[T, C any] struct {
	Name        string
	Description string
	Fields      []Field[T]
	Keys        []string
	Public      bool // needs no API key
	// Args are inputs that no field describes (a switch such as include_servers); read
	// finds them in the configuration, and the state keeps them as given. Optional.
	Args map[string]dschema.Attribute
	// Validators check the configuration as a whole. Optional.
	Validators []datasource.ConfigValidator
	// Read returns the object; not finding it is an error that names what was looked for.
	Read func(ctx context.Context, m C, config Attrs) (*T, error)
}

// ListDataSourceType declares a data source that lists objects: optional filters in, and
// one list attribute of items made of the object's list-view fields.
type ListDataSourceType[T, C any] struct {
	Name            string
	Description     string
	ListName        string // the list attribute, such as "systems"
	ListDescription string
	Fields          []Field[T]
	Filters         map[string]dschema.Attribute
	Public          bool
	// Validators check the configuration as a whole (a date range, say). Optional.
	Validators []datasource.ConfigValidator
	// SortBy orders the items by a key, so that the manager's order makes no diff.
	// Optional: without it the items keep List's order.
	SortBy func(*T) string
	List   func(ctx context.Context, m C, config Attrs) ([]T, error)

	// Imports is the resource type whose objects the items are (its Target), when they
	// are managed objects: each item then has an import_id, made by that type's ImportID
	// from the item's fields (discovery.go). Optional.
	Imports ImportTarget[T, C]
}

// notFoundDescription ends the description of every data source that reads one object.
const notFoundDescription = " When the object does not exist, the data source warns rather than fails, so that a destroy can go ahead after it was " +
	"deleted outside Terraform: its `id` is then made of the names given and its other attributes are null, and anything planned with them fails at plan or apply."

// description is the declared description, with what happens when the object is not
// found for the data sources that look one up.
func (t DataSourceType[T, C]) description() string {
	if len(t.Keys) == 0 {
		return t.Description
	}
	return t.Description + notFoundDescription
}

func NewDataSource[T, C any](t DataSourceType[T, C]) func() datasource.DataSource {
	return func() datasource.DataSource {
		attributes := dataAttributes(t.Fields, t.Keys, InDetail)
		for name, a := range t.Args {
			attributes[name] = a
		}
		return &engineDataSource[C]{
			name:       t.Name,
			schema:     dschema.Schema{MarkdownDescription: t.description(), Attributes: attributes},
			public:     t.Public,
			validators: t.Validators,
			read: func(ctx context.Context, m C, typ tftypes.Object, config Attrs) (tftypes.Value, error) {
				obj, err := t.Read(ctx, m, config)
				if err != nil {
					return tftypes.Value{}, err
				}
				return Flatten(typ, t.Fields, obj, config, t.Keys...), nil
			},
			absent: func(typ tftypes.Object, config Attrs) (tftypes.Value, string) {
				return placeholder(typ, config, t.Keys)
			},
		}
	}
}

func NewListDataSource[T, C any](t ListDataSourceType[T, C]) func() datasource.DataSource {
	attributes := map[string]dschema.Attribute{}
	for name, a := range t.Filters {
		attributes[name] = a
	}
	itemAttributes := dataAttributes(t.Fields, nil, InList)
	var importID func(*T) tftypes.Value
	var listResource func() list.ListResource
	if t.Imports.name != "" {
		listResource = newListResource(t)
		importID = importIDMaker(t.Imports, t.Fields, t.Name)
		itemAttributes[ImportIDAttr] = dschema.StringAttribute{MarkdownDescription: t.Imports.description(), Computed: true}
	}
	attributes[t.ListName] = dschema.ListNestedAttribute{
		MarkdownDescription: t.ListDescription,
		Computed:            true,
		NestedObject:        dschema.NestedAttributeObject{Attributes: itemAttributes},
	}
	return func() datasource.DataSource {
		return &engineDataSource[C]{
			name:         t.Name,
			schema:       dschema.Schema{MarkdownDescription: t.Description, Attributes: attributes},
			public:       t.Public,
			validators:   t.Validators,
			list:         t.ListName,
			imports:      t.Imports.name,
			listResource: listResource,
			read: func(ctx context.Context, m C, typ tftypes.Object, config Attrs) (tftypes.Value, error) {
				objs, err := t.List(ctx, m, config)
				if err != nil {
					return tftypes.Value{}, err
				}
				return t.value(typ, config, objs, importID), nil
			},
			// What lives under an object that is gone is nothing.
			absent: func(typ tftypes.Object, config Attrs) (tftypes.Value, string) {
				return t.value(typ, config, nil, nil), ""
			},
		}
	}
}

// value is the state of a list data source: the filters as configured, and the objects,
// sorted, as the items of the list.
func (t ListDataSourceType[T, C]) value(typ tftypes.Object, config Attrs, objs []T, importID func(*T) tftypes.Value) tftypes.Value {
	if t.SortBy != nil {
		slices.SortStableFunc(objs, func(a, b T) int { return strings.Compare(t.SortBy(&a), t.SortBy(&b)) })
	}
	listType := typ.AttributeTypes[t.ListName].(tftypes.List) //nolint:forcetypeassert // built as a list
	itemType := listType.ElementType.(tftypes.Object)         //nolint:forcetypeassert // of objects
	items := make([]tftypes.Value, 0, len(objs))
	for i := range objs {
		items = append(items, listItem(itemType, t.Fields, &objs[i], importID))
	}
	return Flatten[T](typ, nil, nil, config.With(t.ListName, tftypes.NewValue(listType, items)))
}

var (
	_ datasource.DataSourceWithConfigure        = (*engineDataSource[struct{}])(nil)
	_ datasource.DataSourceWithConfigValidators = (*engineDataSource[struct{}])(nil)
)

// engineDataSource is the one implementation of datasource.DataSource.
type engineDataSource[C any] struct {
	name       string
	schema     dschema.Schema
	public     bool
	validators []datasource.ConfigValidator
	data       *Configured[C]
	read       func(ctx context.Context, m C, typ tftypes.Object, config Attrs) (tftypes.Value, error)
	// absent is the state when the object read looks for, or its parent, is gone, with
	// the id it made up for it, if any (deleted_outside.go).
	absent func(typ tftypes.Object, config Attrs) (tftypes.Value, string)
	// list and imports are a list data source's list attribute and the resource type of
	// its items (Listing).
	list, imports string
	// listResource is the list resource of the type whose objects the items are.
	listResource func() list.ListResource
}

// ListResource is the list resource made from this list data source, or nil when its
// items are no managed objects.
func (d *engineDataSource[C]) ListResource() func() list.ListResource { return d.listResource }

func (d *engineDataSource[C]) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_" + d.name
}

func (d *engineDataSource[C]) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = d.schema
}

func (d *engineDataSource[C]) ConfigValidators(context.Context) []datasource.ConfigValidator {
	return d.validators
}

func (d *engineDataSource[C]) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.data = configured[C](req.ProviderData, &resp.Diagnostics)
}

func (d *engineDataSource[C]) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	m, diags := d.data.Conn()
	resp.Diagnostics.Append(diags...)
	if !d.public {
		resp.Diagnostics.Append(d.data.requireKey()...)
	}
	config, err := AttrsOf(req.Config.Raw)
	if err != nil {
		resp.Diagnostics.AddError("Invalid configuration", err.Error())
	}
	if resp.Diagnostics.HasError() {
		return
	}
	typ := objectTypeOf(ctx, resp.State.Schema)
	v, err := d.read(ctx, m, typ, config)
	if GoneWithParent(err) {
		v, id := d.absent(typ, config)
		values := "It lists nothing"
		if id != "" {
			d.data.planned.madeUp(id)
			values = fmt.Sprintf("Its id is %q, made of the names the configuration gives, and its other attributes are null", id)
		}
		resp.Diagnostics.AddWarning("apm_"+d.name+": not found", Explain(err)+"\n\n"+values+
			", so that a destroy of what refers to it can go ahead. Anything created with these values fails to plan or to apply; "+
			"if the object should exist, check the names given to this data source.")
		resp.State.Raw = v
		return
	}
	if err != nil {
		resp.Diagnostics.Append(diag.NewErrorDiagnostic("Failed to read apm_"+d.name, Explain(err)))
		return
	}
	resp.State.Raw = v
}
