package cli

import (
	"fmt"
	"sync"
	"time"

	"canopy/api/emulator"
	"canopy/text"
)

// seeding is an emulator seeding its data in the background since start,
// in the words the demo's status line and canopy emulator's stderr say of
// it.
type seeding struct {
	srv         *emulator.Server
	doing, done string               // "building the demo", "built the demo"
	took        func() time.Duration // how long the seeding took, once Ready
	opened      chan struct{}        // closed by Opened
	once        sync.Once
}

func newSeeding(srv *emulator.Server, start time.Time, doing, done string) *seeding {
	// Timed as Ready closes, not when next asked (the status line asks
	// at its next tick).
	end := make(chan time.Duration, 1)
	go func() {
		<-srv.Ready()
		end <- time.Since(start)
	}()
	return &seeding{srv: srv, doing: doing, done: done, took: sync.OnceValue(func() time.Duration { return <-end }),
		opened: make(chan struct{})}
}

// Opened says the UI's start is over (ui.Preparing).
func (s *seeding) Opened() { s.once.Do(func() { close(s.opened) }) }

// Started is closed once the UI's start is over.
func (s *seeding) Started() <-chan struct{} { return s.opened }

// Ready is closed once the emulator answers.
func (s *seeding) Ready() <-chan struct{} { return s.srv.Ready() }

// Progress says how far the seeding is: repos and tags while the data goes
// in, then its indexing, then what it made and in how long.
func (s *seeding) Progress() string {
	p := s.srv.Progress()
	switch {
	case p.Ready:
		return fmt.Sprintf("%s: %s tags in %.1f s", s.done, text.Count(p.Tags), s.took().Seconds())
	case p.Indexing:
		return fmt.Sprintf("%s: indexing %s tags", s.doing, text.Count(p.Tags))
	case p.AllRepos == 0:
		return s.doing + ": organizations, people and roles"
	}
	return fmt.Sprintf("%s: %s of %s repos, %s tags", s.doing, text.Count(p.Repos), text.Count(p.AllRepos), text.Count(p.Tags))
}
