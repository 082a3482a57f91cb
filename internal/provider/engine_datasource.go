package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// dataSourceType declares a data source that reads one object. Its attributes are the
// object's fields of the detail view; keys are the fields the user gives to find it.
type DataSourceType[T, C any] struct {
	name        string
	description string
	fields      []field[T]
	keys        []string
	public      bool // needs no API key
	// args are inputs that no field describes (a switch such as include_servers); read
	// finds them in the configuration, and the state keeps them as given. Optional.
	args map[string]dschema.Attribute
	// validators check the configuration as a whole. Optional.
	validators []datasource.ConfigValidator
	// read returns the object; not finding it is an error that names what was looked for.
	read func(ctx context.Context, m C, config attrs) (*T, error)
}

// listDataSourceType declares a data source that lists objects: optional filters in, and
// one list attribute of items made of the object's list-view fields.
type ListDataSourceType[T, C any] struct {
	name        string
	description string
	listName    string // the list attribute, such as "systems"
	listDesc    string
	fields      []field[T]
	filters     map[string]dschema.Attribute
	public      bool
	// validators check the configuration as a whole (a date range, say). Optional.
	validators []datasource.ConfigValidator
	list       func(ctx context.Context, m C, config attrs) ([]T, error)
}

func NewDataSource[T, C any](t DataSourceType[T, C]) func() datasource.DataSource {
	return func() datasource.DataSource {
		attributes := dataAttributes(t.fields, t.keys, inDetail)
		for name, a := range t.args {
			attributes[name] = a
		}
		return &engineDataSource[C]{
			name:       t.name,
			schema:     dschema.Schema{MarkdownDescription: t.description, Attributes: attributes},
			public:     t.public,
			validators: t.validators,
			read: func(ctx context.Context, m C, typ tftypes.Object, config attrs) (tftypes.Value, error) {
				obj, err := t.read(ctx, m, config)
				if err != nil {
					return tftypes.Value{}, err
				}
				return flatten(typ, t.fields, obj, config, t.keys...), nil
			},
		}
	}
}

func NewListDataSource[T, C any](t ListDataSourceType[T, C]) func() datasource.DataSource {
	attributes := map[string]dschema.Attribute{}
	for name, a := range t.filters {
		attributes[name] = a
	}
	attributes[t.listName] = dschema.ListNestedAttribute{
		MarkdownDescription: t.listDesc,
		Computed:            true,
		NestedObject:        dschema.NestedAttributeObject{Attributes: dataAttributes(t.fields, nil, inList)},
	}
	return func() datasource.DataSource {
		return &engineDataSource[C]{
			name:       t.name,
			schema:     dschema.Schema{MarkdownDescription: t.description, Attributes: attributes},
			public:     t.public,
			validators: t.validators,
			read: func(ctx context.Context, m C, typ tftypes.Object, config attrs) (tftypes.Value, error) {
				objs, err := t.list(ctx, m, config)
				if err != nil {
					return tftypes.Value{}, err
				}
				listType := typ.AttributeTypes[t.listName].(tftypes.List) //nolint:forcetypeassert // built above as a list
				itemType := listType.ElementType.(tftypes.Object)         //nolint:forcetypeassert // of objects
				items := make([]tftypes.Value, 0, len(objs))
				for i := range objs {
					items = append(items, objectValue(itemType, t.fields, &objs[i]))
				}
				return flatten[T](typ, nil, nil, config.with(t.listName, tftypes.NewValue(listType, items))), nil
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
	read       func(ctx context.Context, m C, typ tftypes.Object, config attrs) (tftypes.Value, error)
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
	config, err := attrsOf(req.Config.Raw)
	if err != nil {
		resp.Diagnostics.AddError("Invalid configuration", err.Error())
	}
	if resp.Diagnostics.HasError() {
		return
	}
	v, err := d.read(ctx, m, objectTypeOf(ctx, resp.State.Schema), config)
	if err != nil {
		resp.Diagnostics.Append(diag.NewErrorDiagnostic("Failed to read apm_"+d.name, explain(err)))
		return
	}
	resp.State.Raw = v
}
