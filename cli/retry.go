package cli

import (
	"context"
	"errors"
	"io"
	"time"

	"canopy/api"
	"canopy/cli/exit"
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

// clientRefused says why the API client could not be made (exit 2): for a
// plain http URL to another machine, how to use it anyway.
func clientRefused(stderr io.Writer, name string, err error) int {
	exit.Sayf(stderr, "%s: %v", name, err)
	if errors.Is(err, api.ErrInsecureHTTP) {
		exit.Sayf(stderr, "Use https://, or --allow-insecure-http (CANOPY_ALLOW_INSECURE_HTTP=true) to send it anyway.")
	}
	return exit.Usage
}
