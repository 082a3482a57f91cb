package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// Schema version 1 of apm_web_workers: workers became a map keyed by the WAS server's id
// (0.1.0's development builds before it held a list of objects, each with its
// was_server_id). The states those builds wrote are version 0, as are the states of the
// map's own builds before the version was raised, so the upgrade from 0 reads the raw
// state and turns a list into the map; a map stays as it is.
const webWorkersSchemaVersion = 1

// workerListServer is the attribute of a worker of the list that named its WAS server.
const workerListServer = "was_server_id"

var webWorkersUpgraders = map[int64]resource.StateUpgrader{
	0: {StateUpgrader: upgradeWorkerList},
}

func upgradeWorkerList(ctx context.Context, req resource.UpgradeStateRequest, resp *resource.UpgradeStateResponse) {
	if req.RawState == nil {
		return
	}
	upgraded, err := workersAsMap(req.RawState.JSON)
	if err == nil {
		typ := resp.State.Schema.Type().TerraformType(ctx)
		resp.State.Raw, err = tftypes.ValueFromJSONWithOpts(upgraded, typ, tftypes.ValueFromJSONOpts{IgnoreUndefinedAttributes: true})
	}
	if err != nil {
		resp.Diagnostics.AddError("Cannot upgrade the state of apm_web_workers",
			fmt.Sprintf("The state was written by an earlier build of the provider and could not be read: %v. "+
				"Remove it from the state (terraform state rm) and import the web server's workers again.", err))
	}
}

// workersAsMap returns the JSON state raw with its workers list turned into a map keyed by
// each worker's WAS server, or raw as it is when its workers are a map already.
func workersAsMap(raw []byte) ([]byte, error) {
	var state map[string]json.RawMessage
	if err := json.Unmarshal(raw, &state); err != nil {
		return nil, fmt.Errorf("reading the state: %w", err)
	}
	// A list starts with '['; a map (the current shape) or null is left as it is.
	if !bytes.HasPrefix(bytes.TrimSpace(state[attrWorkers]), []byte("[")) {
		return raw, nil
	}
	var list []map[string]json.RawMessage
	if err := json.Unmarshal(state[attrWorkers], &list); err != nil {
		return nil, fmt.Errorf("reading the workers: %w", err)
	}
	workers := make(map[string]map[string]json.RawMessage, len(list))
	for i, w := range list {
		var id string
		if err := json.Unmarshal(w[workerListServer], &id); err != nil || id == "" {
			return nil, fmt.Errorf("workers[%d] names no WAS server (%s)", i, w[workerListServer])
		}
		delete(w, workerListServer)
		workers[id] = w
	}
	var err error
	if state[attrWorkers], err = json.Marshal(workers); err != nil {
		return nil, fmt.Errorf("writing the workers: %w", err)
	}
	return json.Marshal(state)
}
