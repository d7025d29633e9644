package api

// The token chain (API.md, "Authentication"): one oauth2.TokenSource that looks for a bearer
// token in the places a platform user already keeps one, so canopy needs no login of its own.
// A token is a credential: nothing in this file may put one into an error, a log line or a
// printed value, which is why errors name where a token was looked for and never what was found.

import (
	"bytes"
	"canopy/lazyregexp"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"golang.org/x/oauth2"
)

const (
	// tokenDefaultAudience is the real API's URL, the audience its tokens are minted for.
	tokenDefaultAudience = "https://console-api.enforce.dev"
	// tokenDefaultEarly leaves time for a request to reach the server before its token expires.
	tokenDefaultEarly = time.Minute
	// chainctlTimeout bounds `chainctl auth token`, which may stall on the network.
	chainctlTimeout = 30 * time.Second
	// chainctlWaitDelay is how long a grandchild holding chainctl's pipes
	// may outlive it once it is ended.
	chainctlWaitDelay = 2 * time.Second
	// maxTokenBytes bounds what is read from a token file: a JWT is a few KiB at most.
	maxTokenBytes = 1 << 20
)

// ErrNoToken is wrapped by the error Token returns when no link of the chain yields a token, so
// callers can tell "not logged in" from other failures with errors.Is.
var ErrNoToken = errors.New("no API token found")

// TokenOptions configure NewTokenSource. Zero values mean the real environment; tests replace
// them to run the chain without touching the user's environment, cache or PATH.
type TokenOptions struct {
	Audience  string                       // the API URL, e.g. https://console-api.enforce.dev
	TokenFile string                       // --token-file; "" skips that link
	Getenv    func(string) string          // nil → os.Getenv
	CacheDir  string                       // "" → os.UserCacheDir()
	LookPath  func(string) (string, error) // nil → exec.LookPath
	Now       func() time.Time             // nil → time.Now
	Early     time.Duration                // refresh this long before exp; 0 → 1 minute
	// Session is the run's context: when it ends (canopy is interrupted)
	// a chainctl still running is stopped. nil: it runs to its timeout.
	Session context.Context
	// ChainctlTimeout bounds a run of chainctl; 0 → 30 s.
	ChainctlTimeout time.Duration
}

// TokenSource implements oauth2.TokenSource. It caches the token and re-reads the chain when the
// JWT's exp is within Early (tokens without a readable exp are kept until Invalidate).
// Safe for concurrent use.
//
// Its state sits behind a pointer so that printing a TokenSource value (not only a pointer)
// shows an address rather than the token; the pointer itself prints through Format.
type TokenSource struct{ st *tokenState }

type tokenState struct {
	opts   TokenOptions
	static bool // StaticToken: never re-read, never dropped

	// fetch serialises chain reads so that concurrent callers with a stale token run chainctl
	// once, not once each. It is held while reading, mu only while touching tok and origin, so
	// Origin and String never wait for chainctl.
	fetch   sync.Mutex
	mu      sync.Mutex
	tok     *oauth2.Token
	origin  string
	skipped []string // why sources before origin were passed over (Skipped)
}

// NewTokenSource returns the token chain for opts. It reads nothing until the first Token call,
// so building a client costs no process start or file read.
func NewTokenSource(opts TokenOptions) *TokenSource {
	opts.Audience = strings.TrimSuffix(opts.Audience, "/") // the cache dir and aud ignore it
	if opts.Audience == "" {
		opts.Audience = tokenDefaultAudience
	}
	if opts.Getenv == nil {
		opts.Getenv = os.Getenv
	}
	if opts.LookPath == nil {
		opts.LookPath = exec.LookPath
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Early <= 0 {
		opts.Early = tokenDefaultEarly
	}
	if opts.ChainctlTimeout <= 0 {
		opts.ChainctlTimeout = chainctlTimeout
	}
	return &TokenSource{st: &tokenState{opts: opts}}
}

// StaticToken is a TokenSource for a fixed token (used by `canopy demo` with the emulator's admin
// token); Invalidate is a no-op because re-reading would yield the same token.
func StaticToken(token, origin string) *TokenSource {
	st := &tokenState{static: true, origin: origin, opts: TokenOptions{Now: time.Now}}
	if t := strings.TrimSpace(token); t != "" {
		st.tok = newBearer(t)
	}
	return &TokenSource{st: st}
}

// Token returns the cached token while it is fresh, else the first token the chain yields. A JWT
// that has expired (by more than tokenClockSkew) is never returned: the chain says so locally
// and takes the next source (see Skipped), and when no source is left its error says why each
// was passed over.
func (s *TokenSource) Token() (*oauth2.Token, error) {
	if s == nil || s.st == nil {
		return nil, errors.New("api: TokenSource not made by NewTokenSource or StaticToken")
	}
	st := s.st
	if t, ok := st.cached(); ok {
		return t, nil
	}
	if st.static {
		return nil, fmt.Errorf("static token (%s) is empty", st.origin)
	}
	st.fetch.Lock()
	defer st.fetch.Unlock()
	if t, ok := st.cached(); ok { // another caller refreshed while we waited
		return t, nil
	}
	tok, origin, skipped, err := st.readChain()
	st.mu.Lock()
	defer st.mu.Unlock()
	if err != nil {
		st.tok, st.origin, st.skipped = nil, "", nil // Origin must not name a source we no longer use
		return nil, err
	}
	st.tok, st.origin, st.skipped = tok, origin, skipped
	return copyToken(tok), nil
}

// cached returns a copy of the held token when it may still be used. A copy, because callers
// (oauth2.Transport, tests) own what they receive and must not change the source's state.
func (st *tokenState) cached() (*oauth2.Token, bool) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.tok == nil {
		return nil, false
	}
	if st.static || st.tok.Expiry.IsZero() || st.opts.Now().Add(st.opts.Early).Before(st.tok.Expiry) {
		return copyToken(st.tok), true
	}
	return nil, false
}

// Invalidate drops the cached token so the next Token() re-reads the chain; the client calls it
// once after a 401, since a revoked token or a fresh `chainctl auth login` do not show in exp.
func (s *TokenSource) Invalidate() {
	if s != nil && s.st != nil && !s.st.static {
		s.st.mu.Lock()
		s.st.tok = nil
		s.st.mu.Unlock()
	}
}

// Origin says where the current token came from ("CANOPY_TOKEN", "token file /p", "chainctl",
// "platform CLI cache /p"), never the token; "" before the first successful Token call.
func (s *TokenSource) Origin() string {
	if s == nil || s.st == nil {
		return ""
	}
	s.st.mu.Lock()
	defer s.st.mu.Unlock()
	return s.st.origin
}

// Skipped says why sources before Origin's were passed over at the last read of the chain, e.g.
// "CANOPY_TOKEN holds a token that expired 3 h ago (at 2026-03-01T09:00:00Z)": the token file
// and the variables, which the user set, never the cache whose tokens expire by design. Nil when
// none was. It never holds a token.
func (s *TokenSource) Skipped() []string {
	if s == nil || s.st == nil {
		return nil
	}
	s.st.mu.Lock()
	defer s.st.mu.Unlock()
	return append([]string(nil), s.st.skipped...)
}

// String describes the source by origin only, so logging a TokenSource never logs a token.
func (s *TokenSource) String() string {
	origin := s.Origin()
	if origin == "" {
		origin = "no token yet"
	}
	return "token source (" + origin + ")"
}

// GoString serves %#v with the same token-free description as String.
func (s *TokenSource) GoString() string {
	return fmt.Sprintf("&api.TokenSource{Origin: %q}", s.Origin())
}

// Format makes every verb (%v, %+v, %s, %q, %x, ...) print String or GoString, never the fields.
func (s *TokenSource) Format(f fmt.State, verb rune) {
	if verb == 'v' && f.Flag('#') {
		_, _ = io.WriteString(f, s.GoString())
		return
	}
	_, _ = io.WriteString(f, s.String())
}

// readChain walks the links in API.md's order and returns the first token with its origin, and
// why the token file or a variable before it was passed over (their token had expired).
func (st *tokenState) readChain() (tok *oauth2.Token, origin string, skipped []string, err error) {
	o := st.opts
	var tried []string
	// passed notes a source whose token expired: it is said, and the chain goes on.
	passed := func(source, why string) {
		tried = append(tried, source+" ("+why+")")
		skipped = append(skipped, source+" "+why)
	}
	if o.TokenFile != "" {
		// The user named this file: one that cannot be read fails here rather than quietly
		// using another identity; only an expired token gives way, and Skipped says so.
		raw, err := readTokenFile(o.TokenFile)
		if err != nil {
			return nil, "", nil, err
		}
		origin := "token file " + o.TokenFile
		why := st.expired(raw)
		if why == "" {
			return newBearer(raw), origin, nil, nil
		}
		passed(origin, "holds a token that "+why)
	} else {
		tried = append(tried, "--token-file (not given)")
	}
	for _, name := range []string{"CANOPY_TOKEN", "CHAINGUARD_TOKEN"} {
		raw := strings.TrimSpace(o.Getenv(name))
		if raw == "" {
			tried = append(tried, name+" (not set)")
			continue
		}
		if !wellFormed(raw) {
			return nil, "", nil, fmt.Errorf("%s holds a malformed token (it contains spaces or control characters)", name)
		}
		if why := st.expired(raw); why != "" {
			passed(name, "holds a token that "+why)
			continue
		}
		return newBearer(raw), name, skipped, nil
	}
	path, raw, why := st.readCache()
	if why == "" {
		return newBearer(raw), "platform CLI cache " + path, skipped, nil
	}
	tried = append(tried, "platform CLI cache "+path+" ("+why+")")
	raw, why = st.runChainctl()
	if why == "" {
		return newBearer(raw), "chainctl", skipped, nil
	}
	tried = append(tried, "`chainctl auth token --audience "+o.Audience+"` ("+why+")")
	return nil, "", nil, fmt.Errorf("%w; tried %s; set CANOPY_TOKEN, pass --token-file, or run `chainctl auth login`",
		ErrNoToken, strings.Join(tried, ", "))
}

// readCache reads the platform CLI's cached token. It returns why it skipped the cache (""
// when it did not): the reasons end up in the "no token" error to guide the user.
func (st *tokenState) readCache() (path, raw, why string) {
	o := st.opts
	dir := o.CacheDir
	if dir == "" {
		d, err := os.UserCacheDir()
		if err != nil {
			return "<user cache dir>", "", err.Error()
		}
		dir = d
	}
	// The CLI names the directory after the audience with "/" replaced by "-".
	path = filepath.Join(dir, "chainguard", strings.ReplaceAll(o.Audience, "/", "-"), "oidc-token")
	b, _, err := readRegular(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return path, "", "not found"
	case errors.Is(err, errNotRegular) || errors.Is(err, errTooLarge):
		return path, "", err.Error()
	case err != nil:
		return path, "", "unreadable: " + err.Error()
	}
	raw = strings.TrimSpace(string(b))
	exp, ok := JWTExpiry(raw)
	switch now := o.Now(); {
	case raw == "":
		return path, "", "empty"
	case !ok || !wellFormed(raw):
		return path, "", "not a JWT with an exp claim"
	case !now.Before(exp):
		return path, "", "holds a token that " + expiredAgo(now, exp)
	case !now.Add(o.Early).Before(exp):
		// Using it would re-read the chain on every request; chainctl can mint a fresh one.
		return path, "", "expires at " + exp.UTC().Format(time.RFC3339) + ", too soon to use"
	}
	return path, raw, ""
}

// runChainctl asks the platform CLI for a token. Its stdout is the token and never appears in
// an error; its stderr explains failures ("not logged in") and is passed on, redacted.
func (st *tokenState) runChainctl() (raw, why string) {
	path, err := st.opts.LookPath("chainctl")
	if err != nil {
		return "", "not on PATH"
	}
	session := st.opts.Session
	if session == nil {
		session = context.Background()
	}
	ctx, cancel := context.WithTimeout(session, st.opts.ChainctlTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, "auth", "token", "--audience", st.opts.Audience)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.WaitDelay = chainctlWaitDelay // a grandchild holding the pipes must not outlive the timeout
	// Out of the terminal's signals: a ctrl+c reaches canopy, which ends
	// its session and so this run, rather than chainctl dying first and
	// its death reading as a failure of the token chain.
	ownGroup(cmd)
	err = cmd.Run()
	raw = strings.TrimSpace(stdout.String())
	switch {
	case session.Err() != nil:
		return "", "stopped: " + context.Cause(session).Error()
	case ctx.Err() != nil:
		return "", "timed out after " + st.opts.ChainctlTimeout.String()
	case err != nil:
		why = err.Error()
		if msg := redact(stderr.String(), raw); msg != "" {
			why += ": " + msg
		}
		return "", why
	case raw == "":
		return "", "printed no token"
	case !wellFormed(raw):
		return "", "printed a malformed token"
	}
	if why := st.expired(raw); why != "" {
		return "", "printed a token that " + why
	}
	return raw, ""
}

// jwtLike matches anything shaped like a JWT, so a token in a tool's stderr is cut out even
// when it differs from the one on stdout.
var jwtLike = lazyregexp.New(`eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*(\.[A-Za-z0-9_-]*)?`)

// redact turns a tool's stderr into one short line without tokens.
func redact(s, secret string) string {
	s = redactString(s, secret)
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}

// wellFormed rejects tokens with inner whitespace or control characters: they would make an
// invalid Authorization header, and usually mean the wrong file or variable was used.
func wellFormed(raw string) bool {
	for _, r := range raw {
		if r <= ' ' || r == 0x7f {
			return false
		}
	}
	return true
}

// newBearer wraps a raw token; Expiry comes from the JWT's exp and stays zero when unknown,
// which oauth2 reads as "never expires".
func newBearer(raw string) *oauth2.Token {
	t := &oauth2.Token{AccessToken: raw, TokenType: "Bearer"}
	if exp, ok := JWTExpiry(raw); ok {
		t.Expiry = exp
	}
	return t
}

func copyToken(t *oauth2.Token) *oauth2.Token {
	return &oauth2.Token{AccessToken: t.AccessToken, TokenType: t.TokenType, Expiry: t.Expiry}
}
