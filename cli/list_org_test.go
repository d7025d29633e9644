package cli

import (
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"canopy/api/emulator"
	"canopy/cli/exit"
)

// An organization that does not exist, or that the token cannot see, is a
// failure (exit 1) that names it, as the UI refuses to start on it; it is
// never an empty listing of nothing.
func TestListMissingOrganizationFails(t *testing.T) {
	t.Parallel()
	getenv, srv := listEnv(t)
	for _, tc := range []struct {
		name, org, want string
	}{
		{"by name", "initech", `no organization "initech"`},
		{"by uid", strings.Repeat("0", 40), "organization " + strings.Repeat("0", 40)},
		{"a folder uid below nothing", strings.Repeat("0", 40) + "/0123456789abcdef", "organization " + strings.Repeat("0", 40) + "/0123456789abcdef"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, kind := range []string{"repos", "subscriptions"} {
				out, errs, code := list(t, getenv, kind, "--org", tc.org)
				if code != exit.Failure || !strings.Contains(errs, tc.want) || out != "" {
					t.Errorf("%s --org %s: exit %d, want 1; stderr %q (want %q); stdout %q", kind, tc.org, code, errs, tc.want, out)
				}
			}
		})
	}

	// Carol is bound in acme only: globex, which exists, is not hers to see.
	tok := emulator.IdentityToken("https://accounts.google.com", "109283746501928374650", time.Now().Add(time.Hour))
	carol := env(t, map[string]string{"CANOPY_API_URL": getenv("CANOPY_API_URL"), "CANOPY_TOKEN": tok})
	globex := otherOrg(t, srv)
	if out, errs, code := list(t, carol, "repos", "--org", globex); code != exit.Failure || !strings.Contains(errs, "organization "+globex) || out != "" {
		t.Errorf("an organization the token cannot see: exit %d; stderr %q; stdout %q", code, errs, out)
	}
	if out, errs, code := list(t, carol, "repos", "--org", "globex.example"); code != exit.Failure || !strings.Contains(errs, `no organization "globex.example"`) || out != "" {
		t.Errorf("an organization the token cannot see, by name: exit %d; stderr %q; stdout %q", code, errs, out)
	}
	if out, errs, code := list(t, carol, "repos"); code != exit.OK || !strings.Contains(out, "alertmanager") {
		t.Errorf("carol's own organization: exit %d; stderr %q", code, errs)
	}
}

// otherOrg is the uid of the emulator's second organization (globex).
func otherOrg(t *testing.T, srv *emulator.Server) string {
	t.Helper()
	hs := httptest.NewServer(srv)
	defer hs.Close()
	getenv := env(t, map[string]string{"CANOPY_API_URL": hs.URL, "CANOPY_TOKEN": srv.AdminToken(), "CANOPY_ORG": "globex.example"})
	out, errs, code := list(t, getenv, "groups", "-o", "json")
	if code != 0 {
		t.Fatalf("globex: exit %d %s", code, errs)
	}
	// Every group of globex starts with its uid.
	i := strings.Index(out, `"uid": "`)
	if i < 0 {
		t.Fatalf("globex has no folders: %s", out)
	}
	return out[i+8 : i+8+40]
}
