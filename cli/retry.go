package cli

import (
	"context"
	"time"

	"canopy/api"
)

// retryWaitsKey keys the bounds of the waits between attempts that a
// command's caller asks for, in the command's context.
type retryWaitsKey struct{}

type retryWaits struct{ base, max time.Duration }

// withRetryWaits is ctx asking the commands run with it to wait between
// base and max between attempts, however many attempts their policy makes:
// the package's tests check what a command does once its attempts are
// spent, not the seconds of backoff between them.
func withRetryWaits(ctx context.Context, base, max time.Duration) context.Context {
	return context.WithValue(ctx, retryWaitsKey{}, retryWaits{base: base, max: max})
}

// retryIn is policy, with the waits ctx asks for when it asks.
func retryIn(ctx context.Context, policy api.RetryPolicy) api.RetryPolicy {
	if w, ok := ctx.Value(retryWaitsKey{}).(retryWaits); ok {
		policy.BaseDelay, policy.MaxDelay = w.base, w.max
	}
	return policy
}
