package cli

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"

	"github.com/charmbracelet/x/ansi"

	"canopy/cli/exit"
	"canopy/safe"
)

// hostileText is what a compromised server could put in any string: a
// window title, a clipboard write, a screen clear, an 8-bit CSI, a bidi
// override, a zero-width space, a combining grapheme joiner, and a newline
// that forges a line of its own.
const hostileText = "\x1b]0;pwned\x07\x1b]52;c;cHduZWQ=\x07\x1b[2J\u009b31m\u202etxt\u200bx\u034fy\nfake: all good"

// assertInertOutput fails if out holds a raw control (but \n), format, bidi
// or other invisible character, or a line forged by the server.
func assertInertOutput(t *testing.T, what, out string) {
	t.Helper()
	for i, line := range strings.Split(out, "\n") {
		if safe.String(line) != line {
			t.Errorf("%s: line %d is not inert: %q", what, i, line)
		}
		for _, r := range line {
			if unicode.Is(unicode.Cc, r) || unicode.Is(unicode.Cf, r) {
				t.Errorf("%s: line %d holds %U: %q", what, i, r, line)
				break
			}
		}
		if strings.HasPrefix(line, "fake:") {
			t.Errorf("%s: the server forged a line: %q", what, line)
		}
	}
}

// hostileServer answers as a compromised API would: organizations with
// hostile names, an AIP-193 error with a hostile message, and a non-JSON
// error page with hostile text.
func hostileServer(t *testing.T) *httptest.Server {
	t.Helper()
	q := func(s string) string {
		return strings.ReplaceAll(strings.ReplaceAll(quoteJSON(s), "\n", `\n`), "\x07", `\u0007`)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /ping/v2/ping", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`{"response":"ok"}`))
	})
	mux.HandleFunc("GET /iam/v2/groups", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"groups":[{"uid":"` + strings.Repeat("a", 40) + `","name":` + q("evil"+hostileText) + `},` +
			`{"uid":"` + strings.Repeat("b", 40) + `","name":` + q("other"+hostileText) + `}]}`))
	})
	mux.HandleFunc("GET /iam/v2/groups/{uid}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"uid":"` + strings.Repeat("a", 40) + `","name":` + q("evil"+hostileText) + `}`))
	})
	mux.HandleFunc("GET /registry/v2/repos", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusForbidden)
		w.Write([]byte(`{"code":7,"message":` + q("denied "+hostileText) + `}`))
	})
	mux.HandleFunc("GET /iam/v2/identities", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		w.Write([]byte("<html>" + hostileText + "</html>"))
	})
	mux.HandleFunc("GET /events/v2/subscriptions", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"subscriptions":[{"uid":"` + strings.Repeat("a", 40) + `/0123456789abcdef","sink":` + q("https://x/"+hostileText) + `}]}`))
	})
	mux.HandleFunc("GET /iam/v2/roles", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"roles":[{"uid":"r1","name":` + q("漢字"+hostileText) + `,"description":` + q("desc"+hostileText) + `}]}`))
	})
	hs := httptest.NewServer(mux)
	t.Cleanup(hs.Close)
	return hs
}

func quoteJSON(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 && r != '\n' && r != '\x07':
			b.WriteString(`\u00`)
			b.WriteString(string("0123456789abcdef"[r>>4]))
			b.WriteString(string("0123456789abcdef"[r&15]))
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// TestListPrintsServerTextSafely: nothing a server says reaches the
// terminal raw through `canopy list`, on stdout or stderr: organization
// names, an API error's message, a non-JSON error page, table cells and
// JSON output.
func TestListPrintsServerTextSafely(t *testing.T) {
	t.Parallel()
	hs := hostileServer(t)
	getenv := env(t, map[string]string{"CANOPY_API_URL": hs.URL, "CANOPY_TOKEN": "t"})
	org := strings.Repeat("a", 40)
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"which organization", []string{"repos"}, exit.Usage, "the token sees 2 organizations"},
		{"unknown organization", []string{"repos", "--org", "nope"}, exit.Failure, `no organization "nope"`},
		{"API error", []string{"repos", "--org", org}, exit.Failure, "denied ␛]0;pwned␇"},
		{"error page", []string{"identities", "--org", org}, exit.Failure, "not an API error"},
		{"table", []string{"roles", "--org", org}, exit.OK, ""},
		{"json", []string{"roles", "--org", org, "-o", "json"}, exit.OK, ""},
		{"folder", []string{"subscriptions", "--org", org}, exit.OK, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, errs, code := list(t, getenv, tc.args...)
			if code != tc.code || !strings.Contains(errs, tc.want) {
				t.Errorf("exit %d, want %d; stderr %q, want %q in it", code, tc.code, errs, tc.want)
			}
			assertInertOutput(t, "stderr", errs)
			assertInertOutput(t, "stdout", out)
		})
	}
	// The FOLDER column holds the organization's name, made safe too.
	if out, _, _ := list(t, getenv, "subscriptions", "--org", org); !strings.Contains(out, "evil␛]0;pwned") {
		t.Errorf("no FOLDER named after the organization:\n%s", out)
	}
	out, _, _ := list(t, getenv, "roles", "--org", org, "-o", "json")
	if !strings.Contains(out, `\u001b]0;pwned\u0007`) || !strings.Contains(out, `\u202e`) {
		t.Errorf("JSON does not keep the server's text, escaped:\n%s", out)
	}
}

// TestListTableAlignsWideText: a cell of wide characters or markers keeps
// the next column in line (padding counts display cells, not runes).
func TestListTableAlignsWideText(t *testing.T) {
	t.Parallel()
	hs := hostileServer(t)
	getenv := env(t, map[string]string{"CANOPY_API_URL": hs.URL, "CANOPY_TOKEN": "t"})
	out, errs, code := list(t, getenv, "roles", "--org", strings.Repeat("a", 40))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	head, row := lines[0], lines[1]
	col := strings.Index(head, "DESCRIPTION")
	if col < 0 {
		t.Fatalf("no DESCRIPTION column:\n%s", out)
	}
	if got := ansi.StringWidth(row[:strings.Index(row, "desc")]); got != ansi.StringWidth(head[:col]) {
		t.Errorf("the description starts at cell %d, its title at %d:\n%s", got, ansi.StringWidth(head[:col]), out)
	}
}

// TestListExitCodes: 3 only when the API cannot be connected to; a token
// file others can read, a redirect to another host and an answer cut short
// are failures (1).
func TestListExitCodes(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	loose := filepath.Join(dir, "token")
	if err := os.WriteFile(loose, []byte("secret-token"), 0o644); err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /iam/v2/groups", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://elsewhere.invalid/iam/v2/groups", http.StatusFound)
	})
	mux.HandleFunc("GET /iam/v2/groups/{uid}", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`{"uid":"` + r.PathValue("uid") + `","name":"org"}`))
	})
	mux.HandleFunc("GET /registry/v2/repos", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "1000")
		w.Write([]byte(`{"repos":[`))
	})
	hs := httptest.NewServer(mux)
	t.Cleanup(hs.Close)
	org := strings.Repeat("a", 40)

	closed := refusedURL(t)

	for _, tc := range []struct {
		name string
		env  map[string]string
		args []string
		code int
		want string
	}{
		{"connection refused", map[string]string{"CANOPY_API_URL": closed, "CANOPY_TOKEN": "x"}, []string{"repos"}, exit.NoServer, "connection refused"},
		{"no such host", map[string]string{"CANOPY_API_URL": "https://no-such-host.invalid", "CANOPY_TOKEN": "x"}, []string{"repos"}, exit.NoServer, "no-such-host.invalid"},
		{"token file others can read", map[string]string{"CANOPY_API_URL": hs.URL, "CANOPY_TOKEN_FILE": loose}, []string{"repos"}, exit.Failure, "token"},
		{"redirect to another host", map[string]string{"CANOPY_API_URL": hs.URL, "CANOPY_TOKEN": "x"}, []string{"repos"}, exit.Failure, "refusing redirect"},
		{"answer cut short", map[string]string{"CANOPY_API_URL": hs.URL, "CANOPY_TOKEN": "x"}, []string{"repos", "--org", org, "-o", "json"}, exit.Failure, "read response"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, errs, code := list(t, env(t, tc.env), tc.args...)
			if code != tc.code || !strings.Contains(errs, tc.want) {
				t.Errorf("exit %d, want %d: %q (want %q in it)", code, tc.code, errs, tc.want)
			}
			if strings.Contains(errs, "secret-token") {
				t.Errorf("the token is printed: %q", errs)
			}
		})
	}
}
