package ui

import (
	"strings"
	"testing"
	"time"

	"canopy/api"
	"canopy/api/emulator"
	"canopy/state"
	"canopy/theme"
)

// startAt runs the shell on the small emulator with a start.
func startAt(t *testing.T, s Start) (*harness, *api.Client) {
	t.Helper()
	srv, client := newEmulator(t, emulator.Options{Seed: 1})
	h := startWith(t, srv, Options{Client: client, Org: srv.OrgUID(), Host: "test", Identity: "admin (test)",
		Theme: theme.Options{Name: theme.Dark}, Now: func() time.Time { return fixedNow }, Start: s}, 140, 40)
	return h, client
}

// TestStartWithACommand: -c runs a `:` command once the organization
// opens; a table command's argument is its filter, and :tags's a repo.
func TestStartWithACommand(t *testing.T) {
	t.Parallel()
	h, _ := startAt(t, Start{Command: ":tags python"})
	s := h.waitText("tags of python", "184/184 loaded")
	if strings.Contains(s, "ollama") {
		t.Errorf("tags of other repos:\n%s", s)
	}
	// One repo's rows: no REPO column; Y still knows the repo.
	if strings.Contains(line(s, "TAG"), "REPO") {
		t.Errorf("one repo's tags show REPO:\n%s", line(s, "TAG"))
	}
	h.keys("Y")
	h.waitFor("the clipboard", func(string) bool { return h.clipboard != "" })
	if !strings.HasPrefix(h.clipboard, "cgr.dev/acme.example/python:") {
		t.Errorf("Y copied %q", h.clipboard)
	}
	h, _ = startAt(t, Start{Command: "repos pyth"})
	h.waitText("repos of acme.example", "/pyth", "python")
	h, _ = startAt(t, Start{Command: "ident"}) // a prefix of one command
	h.waitText("identities of acme.example")
}

// TestStartOnAResource: canopy open shows a resource in the tree, its
// folders opened and the cursor on it, by pull reference, uid, advisory id
// or name.
func TestStartOnAResource(t *testing.T) {
	t.Parallel()
	h, client := startAt(t, Start{Open: "cgr.dev/acme.example/python:3.10"})
	h.waitText("details: 3.10", "opened the tag 3.10")
	if l := line(h.screen(), "v python"); l == "" {
		t.Errorf("python is not open in the tree:\n%s", h.screen())
	}

	repos, err := client.ListRepos(t.Context(), api.ListOptions{Name: "python", DescendantsOf: h.m.env.org.UID})
	if err != nil || len(repos.Items) != 1 {
		t.Fatalf("python: %v %v", repos, err)
	}
	tags, err := client.ListTags(t.Context(), api.ListOptions{ChildrenOf: repos.Items[0].UID, Name: "3.11"})
	if err != nil || len(tags.Items) != 1 {
		t.Fatalf("python:3.11: %v %v", tags, err)
	}
	h, _ = startAt(t, Start{Open: tags.Items[0].UID})
	h.waitText("details: 3.11", "opened the tag 3.11")
	h, _ = startAt(t, Start{Open: "python@" + tags.Items[0].Digest})
	h.waitText("opened the tag 3.11")

	h, _ = startAt(t, Start{Open: api.ParentUID(repos.Items[0].UID)})
	h.waitText("opened the folder")

	advs, err := client.ListAdvisories(t.Context(), api.ListOptions{PageSize: 1})
	if err != nil || len(advs.Items) == 0 {
		t.Fatalf("advisories: %v", err)
	}
	id := advs.Items[0].AdvisoryID
	h, _ = startAt(t, Start{Open: strings.ToLower(id)})
	h.waitText("details: "+id, "opened the advisory "+id)

	h, _ = startAt(t, Start{Open: "python"}) // a name: asked of the server
	h.waitText("found repo python")

	// A digest a hidden tag shares with listed ones opens a listed one; a
	// hidden tag by uid is said to be hidden.
	all, err := client.ListTags(t.Context(), api.ListOptions{ChildrenOf: repos.Items[0].UID, IncludeEpochs: true, IncludeDates: true,
		PageSize: api.MaxPageSize})
	if err != nil {
		t.Fatal(err)
	}
	var hidden *api.Tag
	for i, tg := range all.Items {
		if strings.Contains(tg.Name, "-r") {
			hidden = &all.Items[i]
		}
	}
	if hidden == nil {
		t.Fatal("no epoch tag of python")
	}
	h, _ = startAt(t, Start{Open: "python@" + hidden.Digest})
	s := h.waitFor("a listed tag, or the hidden one said", func(s string) bool {
		return strings.Contains(s, "opened the tag ") || strings.Contains(s, "is a hidden tag")
	})
	if strings.Contains(line(s, "opened the tag"), hidden.Name) {
		t.Errorf("the hidden tag was opened:\n%s", s)
	}
	h, _ = startAt(t, Start{Open: hidden.UID})
	h.waitText("python:" + hidden.Name + " is a hidden tag")

	bindings, err := client.ListRoleBindings(t.Context(), api.ListOptions{DescendantsOf: h.m.env.org.UID, PageSize: 1})
	if err != nil || len(bindings.Items) == 0 {
		t.Fatalf("bindings: %v", err)
	}
	h, _ = startAt(t, Start{Open: bindings.Items[0].UID})
	h.waitText("opened the role binding", "v role bindings")
}

// TestStartOnNothing says what was not found, on the tree.
func TestStartOnNothing(t *testing.T) {
	t.Parallel()
	for target, says := range map[string]string{
		"cgr.dev/acme.example/python:9.99":             "python has no tag 9.99",
		"cgr.dev/globex/python:3":                      "it is in the organization globex",
		"nosuchrepo:1":                                 "no repo is named nosuchrepo",
		"pypi/requests":                                "the service reads no single library by uid",
		strings.Repeat("ab", 20) + "/0123456789abcdef": "nothing this token can see has the uid …0123456789abcdef",
		"CGA-zzzz-zzzz-zzzz":                           "no advisory has the id CGA-zzzz-zzzz-zzzz",
	} {
		h, _ := startAt(t, Start{Open: target})
		h.waitText("canopy open", says)
		h.waitText("acme.example", "platform")
	}
}

func TestCheckStart(t *testing.T) {
	t.Parallel()
	if err := CheckStart(Start{Command: "nosuch"}, nil, nil); err == nil || !strings.Contains(err.Error(), "unknown command :nosuch") {
		t.Errorf("nosuch: %v", err)
	}
	if err := CheckStart(Start{Command: "t"}, nil, nil); err == nil || !strings.Contains(err.Error(), ":t could be") {
		t.Errorf("t: %v", err)
	}
	if err := CheckStart(Start{Command: ":2500"}, nil, nil); err != nil {
		t.Errorf(":2500: %v", err)
	}
}

// TestSessionIsResumed: where the explorer was left (open branches, the
// cursor, the last command) comes back at the next start on the
// organization, and the org picker offers the organization open last.
func TestSessionIsResumed(t *testing.T) {
	t.Parallel()
	srv, client := newEmulator(t, emulator.Options{Seed: 1})
	opts := Options{Client: client, Org: srv.OrgUID(), Host: "test", Identity: "admin (test)",
		Theme: theme.Options{Name: theme.Dark}, Now: func() time.Time { return fixedNow }}
	h := startWith(t, srv, opts, 140, 40)
	h.waitText("platform")
	h.moveTo("platform")
	h.keys("l")
	h.moveTo("repos of platform")
	h.keys("l", "j")
	h.waitFor("a repo under the cursor", func(s string) bool { return !strings.Contains(s, "details: repos of platform") })
	left := detailsOf(h.screen())
	h.typeText(":tags python")
	h.keys("enter")
	h.waitText("tags of python")
	h.keys("esc")
	h.waitText("details: " + left)
	s, ok := h.m.Session()
	if !ok || s.Command != "tags python" || len(s.Cursor) != 4 || len(s.Open) != 1 {
		t.Fatalf("session %+v %v", s, ok)
	}

	opts.Resume = state.API{LastOrg: s.OrgUID, Orgs: map[string]state.Session{s.OrgUID: s}}
	h = startWith(t, srv, opts, 140, 40)
	h.waitText("details: "+left, "back where you left off", "brings back :tags python")
	if line(h.screen(), "v platform") == "" || line(h.screen(), "v repos") == "" {
		t.Errorf("the branches are not open again:\n%s", h.screen())
	}
	h.keys(":")
	h.waitText("brings back :tags python")
	h.keys("tab", "enter")
	h.waitText("tags of python")

	// Several organizations: the one open last is offered first.
	opts.Org = ""
	opts.Resume = state.API{LastOrg: s.OrgUID, Orgs: map[string]state.Session{s.OrgUID: s}}
	h = startWith(t, srv, opts, 140, 40)
	pick := h.waitText("Which organization?")
	if strings.Index(pick, "globex.example") > strings.Index(pick, "acme.example") {
		t.Fatalf("acme is listed first: enter proves nothing:\n%s", pick)
	}
	h.keys("enter") // on acme.example, the one open last
	h.waitText("details: "+left, "back where you left off")
}
