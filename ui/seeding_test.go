package ui

import (
	"sync"
	"testing"
	"time"

	"canopy/api/emulator"
)

// seedingKey is what makes two seedings of the small emulator differ.
type seedingKey struct {
	seed    int64
	hostile bool
	fixed   bool // seeded on the tests' fixed clock (fixedNow), not the real one
}

// seedings holds one seeding per key, made the first time a test asks for
// it: seeding costs ≈ 0.4 s of CPU under -race, and the package starts
// ≈ 170 emulators. Each test gets a fork (emulator.Server.Fork): data of its
// own, the same as a fresh seeding, for a fraction of that.
var seedings sync.Map // seedingKey → func() (*emulator.Server, error)

// fresh is a small emulator as emulator.New(opts) makes it, forked from the
// package's seeding of it. A clock other than fixedNow, or another size,
// is seeded afresh.
func fresh(t *testing.T, opts emulator.Options) *emulator.Server {
	t.Helper()
	fixed := opts.Now != nil && opts.Now().Equal(fixedNow)
	if (opts.Size != "" && opts.Size != "small") || (opts.Now != nil && !fixed) {
		srv, err := emulator.New(opts)
		if err != nil {
			t.Fatal(err)
		}
		return srv
	}
	key := seedingKey{seed: opts.Seed, hostile: opts.Hostile, fixed: fixed}
	seed, _ := seedings.LoadOrStore(key, sync.OnceValues(func() (*emulator.Server, error) {
		o := emulator.Options{Seed: key.seed, Hostile: key.hostile, AdminToken: "seeding-only"}
		if key.fixed {
			o.Now = func() time.Time { return fixedNow }
		}
		return emulator.New(o)
	}))
	src, err := seed.(func() (*emulator.Server, error))()
	if err != nil {
		t.Fatal(err)
	}
	srv, err := src.Fork(opts)
	if err != nil {
		t.Fatal(err)
	}
	return srv
}
