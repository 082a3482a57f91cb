package engine

import (
	"errors"

	"github.com/apmplatform/terraform-provider-apm/internal/apm"
)

// ErrGone says that the object a call looked for does not exist (any more).
var ErrGone = errors.New("not found in the manager")

// IsGone reports whether err says that the object does not exist: the provider found it
// missing in a complete answer (errGone), or the manager said so for that very object
// (apm.IsNotFound). Any other 404, from a wrong path prefix say, is an error: taking it
// for "deleted" would empty the state and orphan the real objects.
func IsGone(err error) bool { return errors.Is(err, ErrGone) || apm.IsNotFound(err) }

// GoneWithParent reports whether a read or delete of an object found it gone, or found
// gone what it lives under (the manager's 404 for the node of a server, the server of a
// part): an object cannot outlive its parent.
func GoneWithParent(err error) bool { return IsGone(err) || isMissingReference(err) }
