package apmsim

import "net/http"

func (a serversArea) delete(k *serverKindSpec) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		typ := r.URL.Query().Get("type")
		switch typ {
		case "uninstall", "deregister":
		case "":
			writeErr(w, badRequest("type is required"))
			return
		default:
			writeErr(w, badRequest("Invalid type: %s (allowed: uninstall, deregister)", typ))
			return
		}
		a.change(w, r, k, func(wd *world, sv *simServer) error {
			if err := a.checkRemovable(wd, sv); err != nil {
				return err
			}
			st := serversState.of(wd)
			key := serverKey(k.name, sv.NodeID, sv.ServerID)
			delete(st.Servers, key)
			what := "uninstalled from"
			if typ == "deregister" {
				st.Released[key] = releasedServer(sv)
				what = "deregistered from"
			}
			a.announce(wd, k, sv, "INFO", what)
			return nil
		})
	}
}

// checkRemovable refuses to remove a server, checking in this order:
//
//  1. a server that is not stopped: actionResult N ("is running; stop it first", "is
//     stopping; try again when it is stopped"), whatever else it has, since stopping
//     comes first anyway;
//  2. a WAS server that a web server balances to: 409, a dependant remains;
//  3. a WAS server with parts (session clustering, datasources, applications): 409, see
//     wasPartsConflict.
//
// Nothing cascades: the client removes what remains and retries.
func (a serversArea) checkRemovable(wd *world, sv *simServer) error {
	switch st := sv.statusAt(a.s.now()); st {
	case srvStopped:
	case srvStopping:
		return serverRefused("Server %s is stopping; try again when it is stopped", sv.ServerID)
	default:
		return serverRefused("Server %s is %s; stop it first", sv.ServerID, st)
	}
	if sv.Kind != serverKindWAS {
		return nil
	}
	if web := workerUsers(wd, sv); len(web) > 0 {
		return conflict("Server %s is a load balancer worker of web server %s; remove the worker first", sv.ServerID, web[0].ServerID)
	}
	return wasPartsConflict(sv)
}

// ---- start and stop ----
