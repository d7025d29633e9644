package cli

import (
	"os"
	"testing"
	"time"

	"canopy/api"
)

// TestMain runs the tests with canopy list's retry policy as scriptRetry
// has it, every attempt included, but with millisecond waits: an API
// that cannot be reached or cuts its answers short is tried as often as
// in use, and the test does not wait the seconds of backoff in between.
func TestMain(m *testing.M) {
	listRetry = func() api.RetryPolicy {
		p := scriptRetry()
		p.BaseDelay, p.MaxDelay = time.Millisecond, 20*time.Millisecond
		return p
	}
	os.Exit(m.Run())
}
