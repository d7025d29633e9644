package api_test

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"canopy/api"
)

// notCalled are the calls of the vendor's definitions that canopy's client
// does not make (and so its emulator does not serve), each with why. The
// list only shrinks: a call made is held to its route by the contract
// table, and TestEveryCallIsMade fails for one that is on neither.
func notCalled() map[string]string {
	return map[string]string{}
}

// TestEveryCallIsMade reads every call of the vendor's definitions and
// fails for one the client does not make (the contract table, which
// TestContractRequests drives against the emulator) unless notCalled says
// why; and for a call on that list that is made, or that the definitions
// no longer have.
func TestEveryCallIsMade(t *testing.T) {
	t.Parallel()
	set := loadProtos(t, protoDir(t))
	made := map[string]bool{}
	for _, r := range api.Contract() {
		made[r.Service+"."+r.RPC] = true
	}
	why := notCalled()
	defined := map[string]bool{}
	for _, name := range slices.Sorted(maps.Keys(set.services)) {
		s := set.services[name]
		for _, r := range s.rpcs {
			call := s.full + "." + r.name
			defined[call] = true
			switch _, excused := why[call]; {
			case made[call] && excused:
				t.Errorf("%s is made now: take it off notCalled", call)
			case !made[call] && !excused:
				t.Errorf("the client does not make %s (%s %s): make it, or say why in notCalled", call, strings.ToUpper(r.method), r.path)
			}
		}
	}
	for call := range why {
		if !defined[call] {
			t.Errorf("notCalled names %s, which the definitions do not have", call)
		}
	}
	t.Logf("%d calls defined, %d made, %d not yet", len(defined), len(defined)-len(why), len(why))
}
