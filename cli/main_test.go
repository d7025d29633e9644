package cli

import (
	"os"
	"testing"
	"time"

	"canopy/api"
)

// TestMain runs the tests with the retry policies of canopy list and of
// the UI's client as the product has them, every attempt included, but
// with millisecond waits: an API that cannot be reached or cuts its
// answers short is tried as often as in use, and the test does not wait
// the seconds of backoff in between.
func TestMain(m *testing.M) {
	listRetry = quickWaits(scriptRetry)
	exploreRetry = quickWaits(exploreRetry)
	os.Exit(m.Run())
}

// quickWaits is policy with its waits cut to milliseconds.
func quickWaits(policy func() api.RetryPolicy) func() api.RetryPolicy {
	return func() api.RetryPolicy {
		p := policy()
		p.BaseDelay, p.MaxDelay = time.Millisecond, 20*time.Millisecond
		return p
	}
}
