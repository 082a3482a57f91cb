package apmsim

import "net/http"

type serverModifyBody struct {
	serverPortsBody
	JavaHome *string `json:"javaHome"`
}

func (a serversArea) modify(k *serverKindSpec) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var body serverModifyBody
		if err := decodeBody(r, &body); err != nil {
			writeErr(w, err)
			return
		}
		changes, err := body.parse(k)
		if err == nil && k.takesJavaHome && body.JavaHome != nil {
			err = checkAbsPath("javaHome", *body.JavaHome)
		}
		if err != nil {
			writeErr(w, err)
			return
		}
		a.change(w, r, k, func(wd *world, sv *simServer) error {
			ports := mergePorts(sv.Ports, changes)
			if err := checkServerPorts(wd, k, sv, ports); err != nil {
				return err
			}
			sv.Ports = ports
			if k.takesJavaHome && body.JavaHome != nil {
				sv.JavaHome = *body.JavaHome
			}
			return nil
		})
	}
}

// mergePorts returns a copy of ports with changes applied.
func mergePorts(ports, changes map[string]int) map[string]int {
	out := make(map[string]int, len(ports)+len(changes))
	for f, p := range ports {
		out[f] = p
	}
	for f, p := range changes {
		out[f] = p
	}
	return out
}

// ---- delete ----
