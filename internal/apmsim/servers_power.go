package apmsim

import (
	"net/http"
	"strings"
)

type serverActionBody struct {
	Action string `json:"action"`
	Force  bool   `json:"force"`
}

func (a serversArea) action(k *serverKindSpec) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var body serverActionBody
		if err := decodeBody(r, &body); err != nil {
			writeErr(w, err)
			return
		}
		switch body.Action {
		case "start", "stop":
		case "":
			writeErr(w, badRequest("action is required"))
			return
		default:
			writeErr(w, badRequest("Invalid action: %s (allowed: start, stop)", body.Action))
			return
		}
		force := k.takesForce && body.Force && body.Action == "stop"
		a.change(w, r, k, func(wd *world, sv *simServer) error {
			if err := a.move(sv, body.Action, force); err != nil {
				return err
			}
			severity, what := "INFO", "started on"
			if body.Action == "stop" {
				severity, what = "WARNING", "stopped on"
			}
			a.announce(wd, k, sv, severity, what)
			return nil
		})
	}
}

// move applies a start or stop to sv, or refuses it for the server's current status. A
// forced stop (WAS) also interrupts a start and skips the stopping phase.
func (a serversArea) move(sv *simServer, action string, force bool) error {
	now := a.s.now().UTC()
	cur := sv.statusAt(now)
	target, busy := srvRunning, srvStopping
	if action == "stop" {
		target, busy = srvStopped, srvStarting
	}
	switch {
	case cur == target || sv.Target == target:
		return serverRefused("Server %s is already %s", sv.ServerID, cur)
	case cur == busy && !force:
		return serverRefused("Server %s is %s; try again when it is %s", sv.ServerID, cur, sv.Target)
	}
	sv.Target, sv.StartFailing = target, false
	sv.TransitionEnd = now.Add(a.s.transitionDelay)
	if force {
		sv.TransitionEnd = now
	}
	if action == "start" && sv.FailsStart {
		// The manager accepts the start; the server is starting, then stopped.
		sv.Target, sv.StartFailing = srvStopped, true
	}
	return nil
}

// FailStarts makes every later start of the servers of kind ("was", "web" or
// "session") named ids ("<serverId>@<nodeName>/<systemName>") fail, or, with fail
// false, succeed again: a server that never becomes healthy, for the tests of what a
// client does then. It reports the first id that names no server.
func (s *Sim) FailStarts(kind string, fail bool, ids ...string) error {
	return s.update(func(wd *world) error {
		servers := make([]*simServer, 0, len(ids))
		for _, id := range ids {
			serverID, rest, _ := strings.Cut(id, "@")
			nodeName, systemName, _ := strings.Cut(rest, "/")
			n, err := serverNode(wd, systemName, nodeName)
			if err != nil {
				return err
			}
			sv := serversState.of(wd).Servers[serverKey(kind, n.ID, serverID)]
			if sv == nil {
				return notFound("Server not found: %s", serverID)
			}
			servers = append(servers, sv)
		}
		for _, sv := range servers {
			sv.FailsStart = fail
		}
		return nil
	})
}

// ---- hooks ----
