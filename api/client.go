package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	"golang.org/x/oauth2"
)

// DefaultBaseURL is the production Platform API.
const DefaultBaseURL = "https://console-api.enforce.dev"

// maxBody bounds how much of a response the client reads.
const maxBody = 32 << 20

// Options configure a Client. Only BaseURL is required.
type Options struct {
	// BaseURL is the API's address, e.g. https://console-api.enforce.dev.
	BaseURL string
	// TokenSource supplies the bearer token; nil sends none (ping needs none).
	// A source with an Invalidate method is asked to re-read after a 401.
	TokenSource oauth2.TokenSource
	// AllowInsecureHTTP lets a token go over plain http to a host that is
	// not this machine; without it New refuses such a URL (ErrInsecureHTTP).
	AllowInsecureHTTP bool
	// HTTPClient is the underlying client; nil uses a fresh one. Its
	// CheckRedirect is replaced so that a redirect never carries the token
	// to another host.
	HTTPClient *http.Client
	// UserAgent defaults to canopy/<version>.
	UserAgent string
	// Timeout bounds each attempt of a call; 0 means 30 s.
	Timeout time.Duration
	// Retry bounds the retries of GETs and of DELETEs the server did not
	// run (see RetryPolicy); the zero value uses DefaultRetry().
	Retry RetryPolicy
	// Logger receives one debug line per attempt (method, path, status,
	// duration), never a token; nil discards.
	Logger *slog.Logger
	// Observe, when set, is told about every call that changes something
	// (not GET), once it is over: for a log of changes. It never sees the
	// token. It is called from the calling goroutine.
	Observe func(Change)
	// PageSize, when set, is the most items a List call asks for (a user's
	// setting, e.g. for a slow link); smaller requests are kept.
	PageSize int
}

// Change is a finished call that changes something: what was asked and
// how it ended.
type Change struct {
	Method string
	URL    string // full URL with query, never a token, nor a user or password (RedactUserinfo)
	Path   string // the API path (no base URL, uids unescaped)
	Mask   string // the update mask sent, "" for none
	Body   []byte // the JSON sent, nil for none
	Err    error  // nil on success
	Took   time.Duration
	// Note is what the caller said the change means (WithNote on the
	// request's context), nil when it said nothing.
	Note *Note
}

// Request is the change as a Request: method, path and mask.
func (c Change) Request() Request { return Request{Method: c.Method, Path: c.Path, Mask: c.Mask} }

// Client calls Platform API v2. It is safe for concurrent use.
type Client struct {
	base      *url.URL
	hc        *http.Client
	tokens    oauth2.TokenSource
	userAgent string
	timeout   time.Duration
	retry     RetryPolicy
	log       *slog.Logger
	observe   func(Change)
	pageSize  int
	ignored   ignoredFilters // see held
}

// invalidator is a token source that can be told its token was refused.
type invalidator interface{ Invalidate() }

// New returns a client for opts.BaseURL.
func New(opts Options) (*Client, error) {
	if opts.BaseURL == "" {
		return nil, errors.New("api: no base URL")
	}
	base, err := url.Parse(strings.TrimRight(opts.BaseURL, "/"))
	if err != nil {
		// A parse error quotes the URL whole, its password included: only
		// its cause is kept.
		return nil, fmt.Errorf("api: base URL %q: %w", RedactUserinfo(opts.BaseURL), scrubURLError(err))
	}
	if base.Scheme != "http" && base.Scheme != "https" || base.Host == "" {
		return nil, fmt.Errorf("api: base URL %q is not an http(s) URL", RedactUserinfo(opts.BaseURL))
	}
	if base.Scheme == "http" && opts.TokenSource != nil && !opts.AllowInsecureHTTP && !isLoopback(base.Hostname()) {
		return nil, fmt.Errorf("api: base URL %q: %w", RedactUserinfo(opts.BaseURL), ErrInsecureHTTP)
	}
	hc := &http.Client{}
	if opts.HTTPClient != nil {
		copied := *opts.HTTPClient
		hc = &copied
	}
	hc.CheckRedirect = sameOriginRedirects(base)
	c := &Client{base: base, hc: hc, tokens: opts.TokenSource, userAgent: opts.UserAgent,
		timeout: opts.Timeout, retry: opts.Retry.withDefaults(), log: opts.Logger, observe: opts.Observe, pageSize: opts.PageSize}
	if c.userAgent == "" {
		c.userAgent = UserAgent
	}
	if c.timeout <= 0 {
		c.timeout = 30 * time.Second
	}
	if c.log == nil {
		c.log = slog.New(slog.DiscardHandler)
	}
	return c, nil
}

// BaseURL is the API address the client talks to.
func (c *Client) BaseURL() string { return c.base.String() }

// Host is the host (and port) of the API address, for a header.
func (c *Client) Host() string { return c.base.Host }

// sameOriginRedirects follows redirects only within the API's host and
// never from https to http, so that a redirect cannot carry the
// Authorization header elsewhere or in cleartext.
func sameOriginRedirects(base *url.URL) func(*http.Request, []*http.Request) error {
	return func(req *http.Request, via []*http.Request) error {
		if req.URL.Host != base.Host {
			return fmt.Errorf("refusing redirect to another host (%s)", req.URL.Host)
		}
		if req.URL.Scheme != base.Scheme && req.URL.Scheme != "https" {
			return fmt.Errorf("refusing redirect from %s to %s (the token would travel in cleartext)", base.Scheme, req.URL.Scheme)
		}
		if len(via) >= 5 {
			return errors.New("stopped after 5 redirects")
		}
		return nil
	}
}

// EscapePath escapes each "/"-separated segment of a resource path, keeping
// the slashes: uids contain slashes and go into paths unescaped (API.md),
// while anything else in them is escaped.
func EscapePath(p string) string {
	segs := strings.Split(p, "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	return strings.Join(segs, "/")
}

// call is one API request: the parts that are the same on every attempt.
type call struct {
	method string
	path   string // unescaped; uids are escaped segment by segment
	// escaped, when set, is the path as sent, for a route whose variable
	// is one segment although its value holds a slash (an artifact id).
	escaped   string
	query     url.Values
	body      any
	anonymous bool // sent without a token (ping)
	// stream, when set, decodes a 2xx body as it arrives (a List page,
	// see streamAnswer) instead of the body being read whole first.
	stream func(io.Reader) error
	// check, when set, holds a 2xx answer decoded into out to what was
	// sent (a masked PATCH's fields, see kept): its error is the call's,
	// and what the observer is told.
	check func(out any) error
}

// do runs a call with retries and decodes a 2xx JSON answer into out (nil
// to discard it); a call that changes something is then reported to the
// observer.
func (c *Client) do(ctx context.Context, k call, out any) error {
	sent := k.path
	if k.escaped != "" {
		sent = k.escaped
	}
	if err := checkPath(sent); err != nil {
		return fmt.Errorf("%s %s: %w", k.method, k.path, err)
	}
	if c.observe == nil || k.method == http.MethodGet {
		return c.checked(k, out, c.run(ctx, k, out))
	}
	start := time.Now()
	err := c.checked(k, out, c.run(ctx, k, out))
	var body []byte
	if k.body != nil {
		body, _ = json.Marshal(k.body)
	}
	c.observe(Change{Method: k.method, URL: RedactUserinfo(c.url(k).String()), Path: k.path, Mask: k.query.Get(updateMask),
		Body: withoutSecrets(body), Err: err, Took: time.Since(start), Note: NoteOf(ctx)})
	return err
}

// checked is err, or, for an answer, what the call's check says of it.
func (c *Client) checked(k call, out any, err error) error {
	if err != nil || k.check == nil {
		return err
	}
	return k.check(out)
}

// url is the call's full URL: uids in the path segment by segment escaped.
func (c *Client) url(k call) *url.URL {
	u := *c.base
	u.Path = c.base.Path + k.path
	u.RawPath = c.base.EscapedPath() + EscapePath(k.path)
	if k.escaped != "" {
		u.RawPath = c.base.EscapedPath() + k.escaped
	}
	u.RawQuery = k.query.Encode()
	return &u
}

// run does the call: attempts, retries, and the decoding of the answer.
func (c *Client) run(ctx context.Context, k call, out any) error {
	var payload []byte
	if k.body != nil {
		b, err := json.Marshal(k.body)
		if err != nil {
			return fmt.Errorf("%s %s: encode request: %w", k.method, k.path, err)
		}
		payload = b
	}
	u := c.url(k)
	start := time.Now()
	reauthed := false
	for attempt := 1; ; attempt++ {
		body, err := c.attempt(ctx, k, u.String(), payload)
		if err == nil {
			return decodeInto(k, body, out)
		}
		if IsUnauthenticated(err) && !reauthed {
			if inv, ok := c.tokens.(invalidator); ok {
				// A 401 means the request was not processed: asking once more
				// with a fresh token is safe for every method.
				reauthed = true
				inv.Invalidate()
				continue
			}
		}
		wait, retry := c.retry.next(k.method, attempt, time.Since(start), err)
		if !retry {
			return err
		}
		c.log.Debug("retrying", "method", k.method, "path", k.path, "attempt", attempt, "wait", wait, "err", err)
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return fmt.Errorf("%s %s: %w (last error: %w)", k.method, k.path, ctx.Err(), err)
		case <-t.C:
		}
	}
}

// attempt sends one request and returns the body of a 2xx answer, or an
// error: *Error for an answer, *TransportError for a failure to get one.
func (c *Client) attempt(ctx context.Context, k call, rawURL string, payload []byte) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	var rd io.Reader
	if payload != nil {
		rd = bytes.NewReader(payload)
	}
	req, err := http.NewRequestWithContext(ctx, k.method, rawURL, rd)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", k.method, k.path, err)
	}
	req.Header.Set("User-Agent", c.userAgent)
	req.Header.Set("Accept", "application/json")
	if payload != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	secret := ""
	if c.tokens != nil && !k.anonymous {
		tok, err := c.tokens.Token()
		if err != nil {
			return nil, &TransportError{Method: k.method, Path: k.path, Err: fmt.Errorf("get token: %w", err), auth: true}
		}
		secret = tok.AccessToken
		req.Header.Set("Authorization", "Bearer "+secret)
	}
	began := time.Now()
	resp, err := c.hc.Do(req)
	if err != nil {
		c.log.Debug("request failed", "method", k.method, "path", k.path, "took", time.Since(began), "err", scrubURLError(err))
		return nil, &TransportError{Method: k.method, Path: k.path, Err: scrubURLError(err)}
	}
	defer resp.Body.Close()
	br := &bodyReader{r: resp.Body}
	if k.stream != nil && resp.StatusCode >= 200 && resp.StatusCode <= 299 {
		return nil, c.streamAnswer(k, br, began, resp.StatusCode)
	}
	body, _ := io.ReadAll(br) // its error is kept by br
	c.log.Debug("request", "method", k.method, "path", k.path, "status", resp.StatusCode, "bytes", len(body), "took", time.Since(began))
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		switch {
		case br.tooMany:
			// Cut where it passed the bound, the body is not decoded.
			return nil, cutError(k, resp, fmt.Sprintf("HTTP %d %s with a body not read: %v",
				resp.StatusCode, http.StatusText(resp.StatusCode), ErrTooManyValues))
		case br.over && !json.Valid(body):
			// A cut body reads as broken JSON: say what happened instead
			// (and spend nothing on the 32 MiB of it).
			return nil, cutError(k, resp, fmt.Sprintf("HTTP %d %s: %v", resp.StatusCode, http.StatusText(resp.StatusCode), ErrResponseTooLarge))
		}
		return nil, decodeError(k, resp, hideToken(body, secret), secret)
	}
	if err := bodyError(k, br); err != nil {
		return nil, err
	}
	return body, nil
}

// scrubURLError keeps the cause of a *url.Error but drops its URL, which
// may carry query values the user did not mean to show.
func scrubURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// TransportError is a call that got no HTTP answer: the connection failed,
// timed out, or the token could not be obtained.
type TransportError struct {
	Method, Path string
	Err          error
	auth         bool
}

// Error says which request failed and why.
func (e *TransportError) Error() string { return fmt.Sprintf("%s %s: %v", e.Method, e.Path, e.Err) }

// Unwrap gives the cause.
func (e *TransportError) Unwrap() error { return e.Err }

// pingPath is the route of Ping.
const pingPath = "/ping/v2/ping"

// Ping checks that the API answers; it needs no token.
func (c *Client) Ping(ctx context.Context) (string, error) {
	var out PingResponse
	err := c.do(ctx, call{method: http.MethodGet, path: pingPath, anonymous: true}, &out)
	return out.Response, err
}
