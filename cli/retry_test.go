package cli

import (
	"context"
	"time"
)

// quick is ctx for a command under test: its retry policy keeps every
// attempt the product makes, with millisecond waits between them. An API
// that cannot be reached or cuts its answers short is tried as often as
// in use, and the test does not wait the seconds of backoff in between.
func quick(ctx context.Context) context.Context {
	return withRetryWaits(ctx, time.Millisecond, 20*time.Millisecond)
}
