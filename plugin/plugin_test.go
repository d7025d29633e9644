package plugin_test

import (
	"context"
	"errors"
	"os"
	"slices"
	"strings"
	"testing"

	"canopy/plugin"
	"canopy/plugin/plugintest"
)

const digest = "sha256:6d8214f2a7b8c3d2de3f2ba59b37d48f1e1db6bea141a8a2df2e764282778a24"

func tagVars() plugin.Vars {
	return plugin.Vars{"Ref": "cgr.dev/acme.example/python:3.12@" + digest, "Image": "cgr.dev/acme.example/python",
		"Repo": "python", "Tag": "3.12", "Digest": digest, "UID": "0123abcd/0123456789abcdef/0123456789abcdef",
		"Name": "3.12", "Org": "acme.example", "OrgUID": "0123abcd"}
}

func TestParseArg(t *testing.T) {
	for _, ok := range []string{"verify", "{{.Ref}}", "--digest={{ .Digest }}", "{{.Repo}}:{{.Tag}}", "plain }"} {
		if _, err := plugin.ParseArg(ok); err != nil {
			t.Errorf("ParseArg(%q): %v", ok, err)
		}
	}
	for arg, says := range map[string]string{
		"{{.Nope}}":          "{{.Nope}} is no variable",
		"{{.Ref | printf}}":  "only {{.Variable}} is expanded",
		"{{ printf \"x\" }}": "only {{.Variable}} is expanded",
		"{{.Ref":             "only {{.Variable}} is expanded",
		"x}}":                "}} without {{.Variable}}",
	} {
		_, err := plugin.ParseArg(arg)
		if err == nil || !strings.Contains(err.Error(), says) {
			t.Errorf("ParseArg(%q) = %v, want it to say %q", arg, err, says)
		}
	}
}

func TestExpandIsOneArgumentPerEntry(t *testing.T) {
	p := plugin.Plugin{Name: "verify", Kinds: []string{"tag"}, Command: "cosign",
		Args: plugin.MustArgs("verify", "--key=k8s://ns/{{.Repo}}", "{{.Ref}}", "{{.Repo}} {{.Tag}}")}
	argv, err := p.Expand(tagVars())
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"cosign", "verify", "--key=k8s://ns/python", "cgr.dev/acme.example/python:3.12@" + digest, "python 3.12"}
	if !slices.Equal(argv, want) {
		t.Fatalf("argv = %q, want %q", argv, want)
	}
}

// TestHostileValuesNeverPass: a value from the server that could be read
// as a flag, hides a control character, or is not of its variable's shape
// stops the run for that resource, with the variable named.
func TestHostileValuesNeverPass(t *testing.T) {
	cases := []struct{ v, value, says string }{
		{"Name", "-rf", "starts with '-'"},
		{"Name", "--output=/etc/passwd", "starts with '-'"},
		{"Name", "ok\x1b]0;pwned\x07", "control character"},
		{"Name", "two\nlines", "control character"},
		{"Name", "bidi\u202etxt", "control character"},
		{"Name", "", "is empty"},
		{"Name", strings.Repeat("x", 3000), "longer than"},
		{"Name", "bad\xffutf8", "not valid UTF-8"},
		{"Tag", "3.12 --insecure", "not a tag name"},
		{"Tag", "$(reboot)", "not a tag name"},
		{"Repo", "python;rm -rf /", "not a repository name"},
		{"Repo", "../../etc", "not a repository name"},
		{"Digest", "sha256:zz", "not a digest"},
		{"Ref", "cgr.dev/acme/python:3.12@sha256:abc --insecure", "not a pull reference"},
		{"Ref", "evil.example/x:1", "not a pull reference"},
		{"Image", "cgr.dev/Acme Org/python", "not an image name"},
		{"UID", "../x", "not a uid"},
		{"Advisory", "CGA-x y", "not an advisory id"},
		{"Aliases", "CVE-2024-1,--flag", "no advisory alias"},
		{"Email", "-x@evil.example", "starts with '-'"},
		// Names cannot break out of a string in a program's code.
		{"Name", "x');__import__('os').system('touch /tmp/PW');('", "one word of letters, digits"},
		{"Name", "$(reboot)", "one word of letters, digits"},
		{"Name", "a;b", "one word of letters, digits"},
		{"Name", "`id`", "one word of letters, digits"},
		{"Name", "a\\b", "one word of letters, digits"},
		{"Org", "acme\"org", "one word of letters, digits"},
	}
	for _, c := range cases {
		p := plugin.Plugin{Name: "t", Kinds: []string{"tag"}, Command: "echo", Args: plugin.MustArgs("{{." + c.v + "}}")}
		vars := tagVars()
		vars[c.v] = c.value
		_, err := p.Expand(vars)
		var shape *plugin.ShapeError
		if !errors.As(err, &shape) || shape.Var != c.v || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%s = %q: err %v, want a shape error on %s saying %q", c.v, c.value, err, c.v, c.says)
		}
	}
	// One word of letters, digits and a few marks passes as it is; a
	// space or a slash (a command line: git -c core.pager={{.Name}}) not.
	for _, bad := range []string{"touch /tmp/pwned", "Alice Nakamura", "a/b"} {
		p := plugin.Plugin{Name: "t", Kinds: []string{"identity"}, Command: "echo", Args: plugin.MustArgs("{{.Name}}")}
		if _, err := p.Expand(plugin.Vars{"Name": bad}); err == nil {
			t.Errorf("Name %q passed", bad)
		}
	}
	p := plugin.Plugin{Name: "t", Kinds: []string{"identity"}, Command: "echo", Args: plugin.MustArgs("{{.Name}}")}
	for _, name := range []string{"alice", "ci-runner", "日本語", "svc@acme.example", "a:c+d,e=f"} {
		argv, err := p.Expand(plugin.Vars{"Name": name})
		if err != nil || argv[1] != name {
			t.Errorf("Name %q: argv %q, err %v; want it passed as one argument", name, argv, err)
		}
	}
}

func TestCheckKindsAndShells(t *testing.T) {
	p := plugin.Plugin{Name: "x", Kinds: []string{"repo"}, Command: "crane", Args: plugin.MustArgs("{{.Digest}}")}
	if err := p.Check(); err == nil || !strings.Contains(err.Error(), "a repo has no {{.Digest}}") {
		t.Errorf("Check = %v, want a repo to have no digest", err)
	}
	for _, sh := range []string{"sh", "/bin/bash", "zsh", "env", "python3", "python3.12", "perl", "node", "awk", "ssh", "sudo", "timeout", "busybox"} {
		p := plugin.Plugin{Name: "x", Kinds: []string{"tag"}, Command: sh, Args: plugin.MustArgs("-c", "echo {{.Tag}}")}
		if err := p.Check(); err == nil || !strings.Contains(err.Error(), "may read it as code") {
			t.Errorf("%s: Check = %v, want a variable refused for a shell", sh, err)
		}
	}
	for _, cmd := range []string{"", "{{.Repo}}", "cosign verify"} {
		if plugin.CheckCommand(cmd) == nil {
			t.Errorf("CheckCommand(%q) passed", cmd)
		}
	}
}

func TestSummary(t *testing.T) {
	ok, one := plugin.Status{}, plugin.Status{Code: 1}
	for _, c := range []struct {
		st   []plugin.Status
		want string
	}{
		{[]plugin.Status{ok}, "exit 0"},
		{[]plugin.Status{one}, "exit 1"},
		{[]plugin.Status{ok, one, ok, one}, "4 runs: 2 ok, 2 exit 1"},
	} {
		if got := plugin.Summary(c.st); got != c.want {
			t.Errorf("Summary = %q, want %q", got, c.want)
		}
	}
}

// TestBatchRunsEachJobWithItsArguments runs the program the test builds,
// one run per job, and reads back the arguments each run got.
func TestBatchRunsEachJobWithItsArguments(t *testing.T) {
	bin, record := plugintest.Argdump(t)
	jobs := []plugin.Job{
		{On: "a", Argv: []string{bin, "one", "$(reboot)", "a b; c"}},
		{On: "b", Argv: []string{bin, "two"}},
	}
	b := plugin.StartBatch(t.Context(), jobs)
	var out strings.Builder
	var ends []plugin.Status
	for {
		ev, ok := b.Next(t.Context())
		if !ok {
			t.Fatal("the batch ended without Done")
		}
		out.Write(ev.Output)
		if ev.End {
			ends = append(ends, ev.Status)
		}
		if ev.Done {
			break
		}
	}
	calls := plugintest.Calls(t, record)
	if len(calls) != 2 || !slices.Equal(calls[0], []string{"one", "$(reboot)", "a b; c"}) || !slices.Equal(calls[1], []string{"two"}) {
		t.Fatalf("the runs got %q", calls)
	}
	if !strings.Contains(out.String(), "argdump: 3 args") || len(ends) != 2 || !ends[0].OK() {
		t.Fatalf("output %q, statuses %v", out.String(), ends)
	}
}

func TestBatchSaysHowRunsFailed(t *testing.T) {
	bin, _ := plugintest.Argdump(t)
	t.Setenv("ARGDUMP_EXIT", "4")
	jobs := []plugin.Job{{On: "a", Argv: []string{bin}}, {On: "b", Argv: []string{"/no/such/program"}}}
	b := plugin.StartBatch(t.Context(), jobs)
	var ends []plugin.Status
	for ev, ok := b.Next(t.Context()); ok && !ev.Done; ev, ok = b.Next(t.Context()) {
		if ev.End {
			ends = append(ends, ev.Status)
		}
	}
	if len(ends) != 2 || ends[0].String() != "exit 4" || !strings.Contains(ends[1].String(), "did not start") {
		t.Fatalf("statuses %v, want exit 4 then did not start", ends)
	}
}

// TestBatchStopsWithItsContext: a cancelled batch ends its run under way.
func TestBatchStopsWithItsContext(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	b := plugin.StartBatch(ctx, []plugin.Job{{On: "a", Argv: []string{"sleep", "60"}}})
	if ev, ok := b.Next(ctx); !ok || !ev.Start {
		t.Fatalf("first event %+v %v, want the start", ev, ok)
	}
	cancel()
	if _, ok := b.Next(context.Background()); ok {
		// the end of the run may still come: it must say stopped
		for ev, ok := b.Next(context.Background()); ok; ev, ok = b.Next(context.Background()) {
			if ev.End && ev.Status.Err == nil {
				t.Fatalf("a cancelled run ended as %v", ev.Status)
			}
		}
	}
}

func TestForegroundRunsOnTheFilesGiven(t *testing.T) {
	bin, record := plugintest.Argdump(t)
	out, err := os.CreateTemp(t.TempDir(), "out")
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	st := plugin.RunForeground(t.Context(), "dump", []plugin.Job{{On: "a", Argv: []string{bin, "x"}}, {On: "b", Argv: []string{bin, "y"}}}, nil, out, out)
	b, _ := os.ReadFile(out.Name())
	if len(st) != 2 || !st[1].OK() || len(plugintest.Calls(t, record)) != 2 ||
		!strings.Contains(string(b), "dump on b (2 of 2)") || !strings.Contains(string(b), "2 runs: 2 ok") {
		t.Fatalf("statuses %v, output:\n%s", st, b)
	}
}

// TestNoNameWhereAKindHasNone: a role binding, a subscription or an invite
// has no name a program could take (canopy shows a label of its own), so
// {{.Name}} on one is refused when the config is read, saying why.
func TestNoNameWhereAKindHasNone(t *testing.T) {
	for _, kind := range []string{"binding", "subscription", "invite"} {
		p := plugin.Plugin{Name: "x", Kinds: []string{kind}, Command: "echo", Args: plugin.MustArgs("{{.Name}}")}
		if err := p.Check(); err == nil || !strings.Contains(err.Error(), "has no {{.Name}}: ") || !strings.Contains(err.Error(), "has no name") {
			t.Errorf("%s: %v", kind, err)
		}
	}
	p := plugin.Plugin{Name: "x", Kinds: []string{"invite"}, Command: "echo", Args: plugin.MustArgs("{{.Ref}}")}
	if err := p.Check(); err == nil || !strings.Contains(err.Error(), "an invite has no {{.Ref}}") {
		t.Errorf("the article: %v", err)
	}
}
