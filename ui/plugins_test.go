package ui

import (
	"context"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"canopy/api/emulator"
	"canopy/plugin"
	"canopy/plugin/plugintest"
	"canopy/theme"
)

var ctrlV = tea.KeyPressMsg{Code: 'v', Mod: tea.ModCtrl}

// startPlugins runs the shell on the small emulator (hostile when asked)
// with plugins.
func startPlugins(t *testing.T, hostile bool, term Terminal, plugins ...plugin.Plugin) *harness {
	t.Helper()
	srv, client := newEmulator(t, emulator.Options{Seed: 1, Hostile: hostile})
	return startWith(t, srv, Options{Client: client, Org: srv.OrgUID(), Host: "test", Identity: "admin (test)",
		Theme: theme.Options{Name: theme.Dark}, Now: func() time.Time { return fixedNow }, Plugins: plugins, Terminal: term}, 140, 40)
}

// dumpPlugin runs argdump with a tag's reference and digest.
func dumpPlugin(bin string, mode plugin.Mode) plugin.Plugin {
	return plugin.Plugin{Name: "dump", Key: "ctrl+v", Kinds: []string{"tag"}, Command: bin,
		Args: plugin.MustArgs("--ref={{.Ref}}", "{{.Digest}}"), Mode: mode}
}

// tagRows are the first n tags of the :tags table as the screen shows
// them: "repo:tag".
func tagRows(t *testing.T, s string, n int) []string {
	t.Helper()
	var out []string
	for _, l := range strings.Split(s, "\n") {
		f := strings.Fields(strings.TrimLeft(l, " ▌>*✓"))
		if len(f) >= 3 && strings.HasPrefix(f[2], "sha256:") {
			out = append(out, f[1]+":"+f[0])
		}
		if len(out) == n {
			break
		}
	}
	if len(out) < n {
		t.Fatalf("fewer than %d tag rows:\n%s", n, s)
	}
	return out
}

// checkDumped checks each run got --ref=<ref of a row> and that ref's digest.
func checkDumped(t *testing.T, calls [][]string, org string, rows []string) {
	t.Helper()
	if len(calls) != len(rows) {
		t.Fatalf("%d runs, want %d: %q", len(calls), len(rows), calls)
	}
	for i, c := range calls {
		if len(c) != 2 {
			t.Fatalf("run %d got %q", i, c)
		}
		ref, digest := strings.TrimPrefix(c[0], "--ref="), c[1]
		want := "cgr.dev/" + org + "/" + rows[i] + "@" + digest
		if ref != want || !strings.HasPrefix(digest, "sha256:") {
			t.Errorf("run %d got %q, want --ref=%s and its digest", i, c, want)
		}
	}
}

// TestPluginRunsOnceOnEachMarkedRow: marked rows each get one run of the
// program, with their own values, and the run log says how each ended.
func TestPluginRunsOnceOnEachMarkedRow(t *testing.T) {
	bin, record := plugintest.Argdump(t)
	h := startPlugins(t, false, nil, dumpPlugin(bin, plugin.Background))
	h.waitText("acme.example")
	h.typeText(":tags")
	h.keys("enter")
	s := h.waitText("sha256:", "ollama")
	rows := tagRows(t, s, 2)
	h.keys("space", "space")
	h.waitText("2 marked")
	h.send(ctrlV)
	s = h.waitText("dump on 2 tags · 2 runs: 2 ok")
	if !strings.Contains(s, rows[0]+" (1 of 2) $ ") || !strings.Contains(s, "argdump: 2 args") || !strings.Contains(s, "dump: exit 0") {
		t.Fatalf("the run log:\n%s", s)
	}
	checkDumped(t, plugintest.Calls(t, record), "acme.example", rows)
	h.inert("run log", 140)
	h.keys("esc")
	h.waitText("2 marked") // back on the table, the marks kept
}

// TestPluginIsACommandAndInHelp: each plugin is a `:` command, and the
// help lists it with why it does not apply where it does not.
func TestPluginIsACommandAndInHelp(t *testing.T) {
	bin, record := plugintest.Argdump(t)
	// Tall enough for the whole help: the plugins come before the
	// commands, which the help lists last.
	srv, client := newEmulator(t, emulator.Options{Seed: 1})
	h := startWith(t, srv, Options{Client: client, Org: srv.OrgUID(), Host: "test", Identity: "admin (test)",
		Theme: theme.Options{Name: theme.Dark}, Now: func() time.Time { return fixedNow }, Plugins: []plugin.Plugin{dumpPlugin(bin, plugin.Background)}}, 140, 120)
	h.waitText("acme.example")
	h.keys("?")
	h.waitText("Keys in acme.example")
	// The reason may wrap (the plugin's path is the test's temp dir).
	s := h.waitFor("the plugin's reason", func(s string) bool {
		return strings.Contains(s, "Plugins") && strings.Contains(strings.Join(strings.Fields(s), " "), "runs on tags, not on folders")
	})
	if l := line(s, "ctrl+v"); !strings.Contains(l, ":dump · background · runs "+bin) {
		t.Errorf("the help's plugin line: %q\n%s", l, s)
	}
	h.keys("esc")
	h.send(ctrlV)
	h.waitText("`ctrl+v` (dump): it runs on tags, not on")
	h.typeText(":tags")
	h.keys("enter")
	rows := tagRows(t, h.waitText("sha256:", "ollama"), 1)
	h.typeText(":dum")
	h.waitText("dump") // offered as the line is typed
	h.typeText("p")
	h.keys("enter")
	h.waitText("dump on " + rows[0] + " · exit 0")
	checkDumped(t, plugintest.Calls(t, record), "acme.example", rows)
	h.keys("esc", "?")
	h.waitText("Keys in tags of acme.example")
	h.keys("G")
	s = h.waitText("Plugins", ":dump · background")
	if l := line(s, "ctrl+v"); strings.Contains(l, "it runs on") {
		t.Errorf("on a tag the plugin is live, the help says %q", l)
	}
}

// TestPluginNeverPassesAHostileName: a value of the wrong shape (a name
// with an escape sequence) stops the run for that row, said on screen;
// nothing runs.
func TestPluginNeverPassesAHostileName(t *testing.T) {
	bin, record := plugintest.Argdump(t)
	p := plugin.Plugin{Name: "who", Key: "ctrl+v", Kinds: []string{"identity"}, Command: bin, Args: plugin.MustArgs("{{.Name}}"),
		Mode: plugin.Background}
	h := startPlugins(t, true, nil, p)
	h.waitText("acme.example")
	h.typeText(":identities")
	h.keys("enter")
	h.waitText("identities of", "alice")
	h.typeText("/pwned")
	h.keys("enter")
	h.waitFor("only the hostile identity", func(s string) bool { return strings.Contains(s, "pwned") && !strings.Contains(s, "alice") })
	h.send(ctrlV)
	s := h.waitText("not run: {{.Name}} holds a control character")
	h.inert("the refusal", 140)
	if calls := plugintest.Calls(t, record); len(calls) != 0 {
		t.Fatalf("a hostile name reached the program: %q\n%s", calls, s)
	}
}

// TestPluginAsksFirst: confirm shows the command lines and runs nothing
// until yes.
func TestPluginAsksFirst(t *testing.T) {
	bin, record := plugintest.Argdump(t)
	p := dumpPlugin(bin, plugin.Background)
	p.Confirm = true
	h := startPlugins(t, false, nil, p)
	h.waitText("acme.example")
	h.typeText(":tags")
	h.keys("enter")
	rows := tagRows(t, h.waitText("sha256:", "ollama"), 1)
	h.send(ctrlV)
	s := h.waitText("Run dump on " + rows[0] + "?")
	// Wrapped at its spaces: each argument whole where it fits a line.
	if !strings.Contains(s, "$ "+bin) || !strings.Contains(s, "--ref=cgr.dev/acme.example/"+rows[0]+"@sha256:") {
		t.Fatalf("the question does not show the command:\n%s", s)
	}
	h.keys("esc")
	h.waitText("tags of acme.example")
	if len(plugintest.Calls(t, record)) != 0 {
		t.Fatal("ran without a yes")
	}
	h.send(ctrlV)
	h.waitText("Run dump on")
	h.keys("y")
	h.waitText("dump on " + rows[0] + " · exit 0")
	checkDumped(t, plugintest.Calls(t, record), "acme.example", rows)
}

// fakeTerminal lends files of its own: what the program writes is kept.
type fakeTerminal struct{ out *os.File }

func (f fakeTerminal) Lend(run func(ctx context.Context, in, out, errOut *os.File) error, done func(error) tea.Msg) tea.Cmd {
	return func() tea.Msg { return done(run(context.Background(), nil, f.out, f.out)) }
}

// TestPluginInTheForeground: a foreground plugin runs on the terminal lent,
// once per marked row, and the status line says how the runs ended.
func TestPluginInTheForeground(t *testing.T) {
	bin, record := plugintest.Argdump(t)
	out, err := os.CreateTemp(t.TempDir(), "terminal")
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	t.Setenv("ARGDUMP_EXIT", "1")
	h := startPlugins(t, false, fakeTerminal{out: out}, dumpPlugin(bin, plugin.Foreground))
	h.waitText("acme.example")
	h.typeText(":tags")
	h.keys("enter")
	rows := tagRows(t, h.waitText("sha256:", "ollama"), 3)
	h.keys("space", "space", "space")
	h.send(ctrlV)
	h.waitText("dump: 3 runs: 0 ok, 3 exit 1")
	checkDumped(t, plugintest.Calls(t, record), "acme.example", rows)
	b, _ := os.ReadFile(out.Name())
	if !strings.Contains(string(b), "dump on "+rows[2]+" (3 of 3)") || !slices.ContainsFunc(strings.Split(string(b), "\n"),
		func(l string) bool { return strings.Contains(l, "argdump: 2 args") }) {
		t.Fatalf("the terminal got:\n%s", b)
	}
}

// detailsOf is the title of the detail pane: "details: <title>".
func detailsOf(s string) string {
	l := line(s, "details: ")
	_, title, _ := strings.Cut(l, "details: ")
	return strings.TrimSpace(strings.Split(title, "  ")[0])
}

// TestPluginOnATagInTheTree: in the tree, a tag's repo is its parent node.
func TestPluginOnATagInTheTree(t *testing.T) {
	bin, record := plugintest.Argdump(t)
	h := startPlugins(t, false, nil, dumpPlugin(bin, plugin.Background))
	h.waitText("platform")
	h.moveTo("platform")
	h.keys("l")
	h.moveTo("repos of platform")
	h.keys("l", "j")
	repo := detailsOf(h.waitFor("a repo selected", func(s string) bool { return detailsOf(s) != "repos of platform" }))
	h.keys("l", "j")
	tag := detailsOf(h.waitFor("a tag selected", func(s string) bool { return detailsOf(s) != repo && detailsOf(s) != "" }))
	h.send(ctrlV)
	h.waitText("dump on " + repo + ":" + tag + " · exit 0")
	checkDumped(t, plugintest.Calls(t, record), "acme.example", []string{repo + ":" + tag})
}

// TestPluginWhoseProgramIsMissing says so, and hands nothing over.
func TestPluginWhoseProgramIsMissing(t *testing.T) {
	t.Parallel()
	h := startPlugins(t, false, nil, dumpPlugin("/no/such/cosign", plugin.Foreground))
	h.waitText("acme.example")
	h.typeText(":tags")
	h.keys("enter")
	h.waitText("sha256:", "ollama")
	h.send(ctrlV)
	h.waitText("dump: /no/such/cosign is not found")
}

// TestPluginOnATagOfARepoOpenedFromItsTable: a tag in the tags table of
// one repo, opened from :repos (/nginx, enter), gives the plugin the same
// pull reference as Y copies there (it once said "{{.Ref}} is empty": the
// table knew its repo's name, the plugin's variables did not).
func TestPluginOnATagOfARepoOpenedFromItsTable(t *testing.T) {
	bin, record := plugintest.Argdump(t)
	h := startPlugins(t, false, nil, dumpPlugin(bin, plugin.Background))
	h.waitText("platform")
	h.typeText(":repos")
	h.keys("enter")
	h.waitText("repos of acme.example")
	h.typeText("/nginx")
	h.keys("enter", "enter")
	s := h.waitFor("the tags of nginx with rows", func(s string) bool {
		return strings.Contains(s, "tags of nginx") && strings.Contains(s, "sha256:")
	})
	tag := ""
	for _, l := range strings.Split(s, "\n") {
		if f := strings.Fields(strings.TrimLeft(l, " ▌>*✓")); len(f) >= 2 && strings.HasPrefix(f[1], "sha256:") {
			tag = f[0]
			break
		}
	}
	if tag == "" {
		t.Fatalf("no tag row:\n%s", s)
	}
	h.send(ctrlV)
	h.waitText("dump on nginx:" + tag + " · exit 0")
	checkDumped(t, plugintest.Calls(t, record), "acme.example", []string{"nginx:" + tag})
}
