package ui

import (
	"context"
	"io"
	"net/http"
)

// answeredTooLate is a network on which the requests that match reach the
// server (which may act on them) and their answers come too late: the
// client sees its deadline pass. It stands in for a short client timeout
// and a slow server, which would race every other request of the test on
// a busy machine; here no clock decides which requests time out.
type answeredTooLate struct {
	match func(*http.Request) bool
}

func (l answeredTooLate) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err != nil || !l.match(req) {
		return resp, err
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return nil, context.DeadlineExceeded
}

// lateClient is an http.Client on such a network.
func lateClient(match func(*http.Request) bool) *http.Client {
	return &http.Client{Transport: answeredTooLate{match: match}}
}

// isPatch matches the PATCHes.
func isPatch(r *http.Request) bool { return r.Method == http.MethodPatch }
