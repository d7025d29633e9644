// Package exit is how a canopy command ends and what it says on the way:
// the exit statuses scripts rely on, the signals that cut a run short
// (each ending it with 128 plus its number, as a shell reports it), the
// steps before the first frame that a signal must be able to cut, and
// Sayf, the one way a command writes a line that may hold text it does
// not control.
package exit

// Exit statuses that mean something to scripts.
const (
	OK       = 0
	Failure  = 1
	Usage    = 2
	NoServer = 3 // the API could not be connected to
)
