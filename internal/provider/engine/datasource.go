package engine

import (
	"context"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
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
	Imports ImportTarget[C]
}

func NewDataSource[T, C any](t DataSourceType[T, C]) func() datasource.DataSource {
	return func() datasource.DataSource {
		attributes := dataAttributes(t.Fields, t.Keys, InDetail)
		for name, a := range t.Args {
			attributes[name] = a
		}
		return &engineDataSource[C]{
			name:       t.Name,
			schema:     dschema.Schema{MarkdownDescription: t.Description, Attributes: attributes},
			public:     t.Public,
			validators: t.Validators,
			read: func(ctx context.Context, m C, typ tftypes.Object, config Attrs) (tftypes.Value, error) {
				obj, err := t.Read(ctx, m, config)
				if err != nil {
					return tftypes.Value{}, err
				}
				return Flatten(typ, t.Fields, obj, config, t.Keys...), nil
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
	if t.Imports.name != "" {
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
			name:       t.Name,
			schema:     dschema.Schema{MarkdownDescription: t.Description, Attributes: attributes},
			public:     t.Public,
			validators: t.Validators,
			list:       t.ListName,
			imports:    t.Imports.name,
			read: func(ctx context.Context, m C, typ tftypes.Object, config Attrs) (tftypes.Value, error) {
				objs, err := t.List(ctx, m, config)
				if err != nil {
					return tftypes.Value{}, err
				}
				if t.SortBy != nil {
					slices.SortStableFunc(objs, func(a, b T) int { return strings.Compare(t.SortBy(&a), t.SortBy(&b)) })
				}
				listType := typ.AttributeTypes[t.ListName].(tftypes.List) //nolint:forcetypeassert // built above as a list
				itemType := listType.ElementType.(tftypes.Object)         //nolint:forcetypeassert // of objects
				items := make([]tftypes.Value, 0, len(objs))
				for i := range objs {
					items = append(items, listItem(itemType, t.Fields, &objs[i], importID))
				}
				return Flatten[T](typ, nil, nil, config.With(t.ListName, tftypes.NewValue(listType, items))), nil
			},
		}
	}
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

	// list and imports are a list data source's list attribute and the resource type of
	// its items (Listing).
	list, imports string
}

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
	v, err := d.read(ctx, m, objectTypeOf(ctx, resp.State.Schema), config)
	if err != nil {
		resp.Diagnostics.Append(diag.NewErrorDiagnostic("Failed to read apm_"+d.name, Explain(err)))
		return
	}
	resp.State.Raw = v
}
