package engine

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/resourcevalidator"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// A secret input (a password, a private key) is given one of two ways, exactly one:
//   - <name>_wo, write-only (Terraform 1.11 or later, OpenTofu): sent to the manager and
//     stored nowhere, neither in plan nor state. Terraform cannot see it change, so
//     <name>_wo_version, a plain number, sends it again when changed (a rotation);
//   - <name>, sensitive, for older CLIs: hidden in output but stored in state.
// The manager never reports a secret: state keeps what was applied (null for _wo).

// Secret declares a secret input of a type.
type Secret struct {
	Name  string // "password": the attributes password_wo, password_wo_version, password
	Title string // "password": what the message that asks for it calls it
	What  string // "the user's password", in descriptions
	// Change says what a new value does, such as "Changing it replaces the database."
	// (sentences end the descriptions of the value and of the version).
	Change string
	// Replaces makes a new value (or version) replace the object, for managers that
	// cannot change the secret in place.
	Replaces bool
	Rules    []validator.String
	// With are the inputs that go with the secret (a certificate, beside its private key),
	// which the manager never reports either: required beside it, and asked for in the
	// same message.
	With []SecretPart
}

// SecretPart is an input that goes with a secret: its attribute, and what the message
// that asks for it calls it ("certificate").
type SecretPart struct{ Attr, Title string }

func (s Secret) writeOnly() string { return s.Name + "_wo" }
func (s Secret) Version() string   { return s.Name + "_wo_version" }

// fields are the secret's three attributes.
func SecretFields[T any](s Secret) []Field[T] {
	fields := []Field[T]{
		InputField[T](s.writeOnly(), fmt.Sprintf("%s, as a write-only value: sent to the manager and never stored in the plan or state "+
			"(Terraform 1.11 or later, OpenTofu). Terraform cannot tell when it changes: change `%s` to send it again. Set exactly one of this and `%s`.",
			capitalized(s.What), s.Version(), s.Name), tftypes.String).writeOnlyInput().secret().Validate(s.Rules...),
		InputField[T](s.Version(), fmt.Sprintf("Any number; changing it sends `%s` again, such as for a rotation. %s", s.writeOnly(), s.Change),
			tftypes.Number).OptionalInput(),
		InputField[T](s.Name, fmt.Sprintf("%s, for CLIs without write-only attributes (Terraform before 1.11): sensitive, but stored in the state, "+
			"so prefer `%s` where the CLI supports it. Set exactly one of this and `%s`. %s", capitalized(s.What), s.writeOnly(), s.writeOnly(), s.Change),
			tftypes.String).OptionalInput().secret().Validate(s.Rules...),
	}
	if s.Replaces {
		fields[1], fields[2] = fields[1].Replacing(), fields[2].Replacing()
	}
	return fields
}

// Validators require exactly one of the secret's two values, and the inputs of With.
// describe names the object (the type's Describe) in the message that asks for them.
func (s Secret) Validators(describe func(Attrs) string) []resource.ConfigValidator {
	return []resource.ConfigValidator{resourcevalidator.Conflicting(path.MatchRoot(s.writeOnly()), path.MatchRoot(s.Name)),
		secretGiven{s: s, describe: describe}, versionOnlyWithWriteOnly{s}}
}

// secretGiven requires the secret (either value) and the inputs of With, and says what is
// missing in one message. The manager never reports them, so the configuration that
// `plan -generate-config-out` writes for an imported object lacks them all: its user
// learns at validate, at once, what to add, and no value is guessed.
type secretGiven struct {
	s        Secret
	describe func(Attrs) string
}

func (v secretGiven) Description(context.Context) string {
	parts := make([]string, 0, len(v.s.With)+1)
	for _, p := range v.s.With {
		parts = append(parts, p.Attr)
	}
	return fmt.Sprintf("%s needs one of %s and %s", strings.Join(append(parts, "the secret"), " and "), v.s.writeOnly(), v.s.Name)
}

func (v secretGiven) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v secretGiven) ValidateResource(_ context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	config, err := AttrsOf(req.Config.Raw)
	if err != nil {
		return
	}
	// An unknown value is given: only null is missing.
	var titles, sets []string
	for _, p := range v.s.With {
		if config[p.Attr].IsNull() {
			titles = append(titles, p.Title)
			sets = append(sets, "`"+p.Attr+"`")
		}
	}
	if config[v.s.writeOnly()].IsNull() && config[v.s.Name].IsNull() {
		titles = append(titles, v.s.Title)
		sets = append(sets, fmt.Sprintf("`%s` (write-only: Terraform 1.11 or later, OpenTofu) or `%s` (older CLIs)", v.s.writeOnly(), v.s.Name))
	}
	if len(titles) == 0 {
		return
	}
	it := "it"
	if len(titles) > 1 {
		it = "them"
	}
	resp.Diagnostics.AddError(v.summary(req.Config.Raw, config, titles), fmt.Sprintf(
		"Set %s. The manager never reports the %s, so Terraform cannot read %s back: the configuration that `plan -generate-config-out` "+
			"writes for an imported object leaves %s out, to be added by hand. After an import, what is added is recorded, not sent.",
		strings.Join(sets, ", and "), strings.Join(titles, " and "), it, it))
}

// summary is the title of the message that asks for what is missing, naming the object
// when the configuration is wholly known (an unknown name would read as ""). Every CLI
// places the errors of the blocks that `plan -generate-config-out` writes at line 1 of
// the file, and Terraform 1.14 and later keep only one of the errors alike in summary,
// detail and place (backend/local's AppendWithoutDuplicates, which leaves the resource
// address out): without the object's name, the plan of an adoption would report one
// missing password for all the databases and users.
func (v secretGiven) summary(raw tftypes.Value, config Attrs, titles []string) string {
	summary := "Missing " + strings.Join(titles, " and ")
	if raw.IsFullyKnown() {
		summary += " for " + v.describe(config)
	}
	return summary
}

// versionOnlyWithWriteOnly refuses <name>_wo_version beside the sensitive <name>: it
// would do nothing there (a new sensitive value is sent whenever it changes), and a user
// who sets it believes a rotation is under way.
type versionOnlyWithWriteOnly struct{ s Secret }

func (v versionOnlyWithWriteOnly) Description(context.Context) string {
	return fmt.Sprintf("%s goes with %s only", v.s.Version(), v.s.writeOnly())
}

func (v versionOnlyWithWriteOnly) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (v versionOnlyWithWriteOnly) ValidateResource(_ context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	config, err := AttrsOf(req.Config.Raw)
	if err != nil {
		return
	}
	version, sensitive := config[v.s.Version()], config[v.s.Name]
	if version.IsNull() || sensitive.IsNull() || !sensitive.IsKnown() {
		return
	}
	resp.Diagnostics.AddAttributeError(path.Root(v.s.Version()), "Invalid attribute combination", fmt.Sprintf(
		"%s sends %s again when it changes; it does nothing beside %s, whose new value is sent whenever it changes. "+
			"Remove %s, or give the value as %s (Terraform 1.11 or later, OpenTofu) and keep the version.",
		v.s.Version(), v.s.writeOnly(), v.s.Name, v.s.Version(), v.s.writeOnly()))
}

// Value is the secret a plan carries: the write-only value (the engine adds it from the
// configuration), else the sensitive one.
func (s Secret) Value(plan Attrs) string {
	if v := plan.Str(s.writeOnly()); v != "" {
		return v
	}
	return plan.Str(s.Name)
}

// capitalized is text with its first letter upper case.
func capitalized(text string) string {
	if text == "" || text[0] < 'a' || text[0] > 'z' {
		return text
	}
	return string(text[0]-'a'+'A') + text[1:]
}
