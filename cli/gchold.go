package cli

import "runtime/debug"

// seedingHeapLimit bounds the heap while collection is held for the
// demo's seeding (holdGC): the small size's seeding allocates about 2 MB,
// the medium's 8.
const seedingHeapLimit = 256 << 20

// holdGC turns garbage collection off until ready closes, then back to
// what it was. A new process collects at a 4 MB heap, then at 8, and so
// on: the demo's seeding and start only add to its heap, so each of those
// collections, run beside the UI's start on a machine of two cores, is
// work thrown away that the first frame waits behind (a third of the
// small demo's wait for its tree); and one run when the seeding ends
// would mark it all while the organization's first pages are read. So
// the demo holds it until its first screen has its rows. The heap stays
// bounded meanwhile (seedingHeapLimit).
func holdGC(ready <-chan struct{}) {
	holdGCWith(ready, debug.SetGCPercent, debug.SetMemoryLimit)
}

// holdGCWith is holdGC with the runtime's two settings given (tests).
func holdGCWith(ready <-chan struct{}, setPercent func(int) int, setLimit func(int64) int64) {
	percent := setPercent(-1)
	if percent < 0 {
		return // off already: GOGC=off, or a hold not yet ended
	}
	limit := setLimit(-1) // as it is: GOMEMLIMIT's, if lower
	setLimit(min(limit, seedingHeapLimit))
	go func() {
		<-ready
		setLimit(limit)
		setPercent(percent)
	}()
}
