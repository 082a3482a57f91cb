// Package engine is the one implementation of every resource and data source of the
// provider. A Terraform type is a declaration (ResourceType, DataSourceType,
// ListDataSourceType): its fields, its import ID and its calls on the manager. The engine
// owns the flow around the calls: decoding plans and states, the conflicts that plan can
// tell (two resources that declare one object or one Exclusive, a create whose object
// exists already: plan.go), create (recording an object whose answer was lost before
// reading it back, 409 handling, adopt_existing), read (404: gone, only when the manager
// says so), update, delete (waiting while the manager refuses it with 409 for dependants),
// import (by import ID or identity), timeouts, write-only secrets, and the wording of
// diagnostics. It knows no type: the provider's files declare them (internal/provider), and
// C is the provider's connection, handed to the calls untouched. The files are named for
// what they hold: resource.go (the declaration and create, read, update), delete.go,
// import.go, timeouts.go, plan.go, references.go (a parent named by id must exist at
// plan), describe.go, identity.go, list_resource.go, action.go, operation.go,
// functions.go, and for moved blocks from the generic REST providers move_state.go (the
// framework hook), move_sources.go (reading restapi_object's and restful_resource's states)
// and move_read.go (the first read of a moved object).
//
// # Glossary
//
//   - manager: the remote platform manager, reached through internal/apm.
//   - system: a named group of nodes; nodes: hosts with an agent; server kinds: WAS
//     (Java application), web and session servers on a node.
//   - part: an object that lives inside a server (a WAS server's session cluster,
//     datasources and applications; a web server's workers, URI patterns and SSL).
//   - field: one attribute of an API object, declared once (Field) and used by the
//     resource, the detail data source and the items of the list data source.
//   - view: where a field appears (InResource, InDetail, InList).
//   - role: what the user does with a field: nothing (computed), set it in place, or set
//     it and replace the object when it changes.
//   - import ID: the string `terraform import` takes, "/"-separated parts (ImportID).
//   - identity: Terraform's resource identity (1.12 and later), which the engine makes of
//     the attributes the import ID's parts fill and keeps up to date (identity.go).
//   - blocker: an object that makes the manager refuse a delete with 409 until it is gone.
//     The delete waits while this provider process deletes one of them, and fails, naming
//     them, once they stay the same for a grace with none being deleted (blockers.go,
//     deletes_in_flight.go).
//   - recreation: a replacement that keeps the object's identity (a database replaced for a
//     new password); its delete may set blockers aside and its create restore them
//     (ResourceType.SetAside and Restore, recreate.go).
//   - move: a `moved` block from another provider's resource type (restapi_object,
//     restful_resource) to one of ours, taken as an import of the object that the source's
//     path names (ResourceType.REST).
//   - finishing write: a request already sent, which runs to its own bound even when the
//     run is interrupted, so that its outcome is recorded.
//   - settle: the wait after a write until the manager reports the declared state.
//   - recorded: the state written from the plan when the object cannot be read back.
//   - action: a day-two operation (Terraform 1.14 and later) that changes no state, such as
//     a server's restart (ActionType, action.go); its configuration is fields of the
//     object Attrs, its progress goes to Terraform as it works (Progress).
//   - operation resource: the declarative twin of an action for every CLI (OperationType,
//     operation.go): it manages no object, runs at create and whenever its triggers change,
//     and records what its last run did; a failed run leaves a Memo in its private state
//     for the next run to carry on from; it has no identity, import or list resource
//     (ManagesAnObject tells it apart in the registry-driven tests).
//
// # Adding a type
//
//  1. Add the client calls to internal/apm (and the endpoints to apmsim).
//  2. Create internal/provider/<type>.go: a field table []engine.Field[apm.X].
//  3. Declare the resource: engine.ResourceType{Name, Description, Fields, ImportID,
//     Describe, Create, Read, Update, Delete}; Read returns ErrGone-wrapped errors when
//     the object is gone. Every attribute that names a parent by its id goes into
//     References (with the parent's Parent, internal/provider/parents.go), and its case
//     into referenceCases (internal/provider/references_test.go).
//  4. Declare its data sources with the same field table (DataSourceType, ListDataSourceType).
//     The list data source's Imports (the resource's Target) also makes the type's list
//     resource (list_resource.go) and its items' import_id; the import ID's Noun names the
//     provider functions that parse and build the id (functions.go).
//  5. Register them in internal/provider/registry.go.
//  6. Add examples/resources/apm_<type>/ (resource.tf, import.sh, import-by-identity.tf,
//     import-by-string-id.tf), acceptance tests with testdata/<type>/*.tf, the type's case
//     of the identity test (identityCases), its endpoints' rows in api/coverage.md, `make
//     generate`, and a CHANGELOG line; the registry-driven tests then require the rest:
//     internal/provider's (schema descriptions, identity, parity of the field table) and
//     internal/repocheck's (docs, examples, CHANGELOG, coverage).
//
// # Adding an action
//
// Declare an ActionType{Name, Description, Fields, Timeout, Describe, Invoke} (fields made
// with InputField[Attrs] and their validators, so that bad input fails at validate),
// register it in Actions in internal/provider/registry.go, and add
// examples/actions/apm_<name>/action.tf (with an `apply -invoke` line), its case in the
// actions' tests (actions_test.go: actionArgs, actionEffects; actions_cli_test.go:
// referencedArgs, for its run on the newest Terraform) and an acceptance configuration that
// declares it; `make generate` writes docs/actions/. For its twin on every CLI, declare an
// OperationType with the same fields and CheckPlan (as apm_was_rollout is of the rolling
// actions, rolling_operations.go) and register it in Resources.
//
// # Changing a type's schema
//
// A state written by an earlier build must plan nothing with the new one:
//
//  1. A new attribute, or one removed, needs nothing: the framework reads a stored state
//     with the attributes it lacks as null and drops those it does not know.
//  2. An attribute whose type or meaning changes (a list that becomes a map): raise
//     ResourceType.SchemaVersion and add to UpgradeState an upgrader from each earlier
//     version. Where states of one version come in two shapes (written before and after
//     the change, by development builds), read the raw JSON and tell them apart, as
//     apm_web_workers does (internal/provider/web_workers_upgrade.go).
//  3. Prove it with a unit test of the upgrader and an acceptance test that writes the
//     state with the earlier build, built from the repository's history, and plans with
//     this one on every CLI (TestAccWebWorkers_stateOfTheListBuild).
//  4. An attribute to be removed is deprecated first, for a release: the framework's
//     DeprecationMessage says what replaces it and in which release it goes; every CLI
//     shows it at validate and plan where the attribute is set, and Terraform 1.15 and
//     OpenTofu 1.12 where it is referred to. The attribute that replaces it works beside
//     it, setting both fails at validate, and switching changes nothing in the manager.
//     CHANGELOG.md lists it under DEPRECATIONS; the docs mark it Deprecated. The first is
//     apm_was_rollout's timeout (operation_timeouts.go), proven on every CLI by
//     TestAccWASRollout_timeoutDeprecated. A Field has no option for it yet: add one
//     with the first Field deprecated.
//
// # Validating a string
//
// A rule of the framework-validators (stringvalidator) where one fits; otherwise
// StringCheck(description, check): check receives known values only and returns a summary
// and a detail naming the attribute and what is allowed ("" when the value is fine).
package engine
