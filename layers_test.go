package main

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// layers names, for every package of canopy, the packages of canopy it may
// import, lowest layers first: a new edge (views reaching for ui, api for
// anything of the screen) fails TestLayers until it is argued for here.
// "views/..." stands for every package under views.
//
// The views base (package views) knows no api: what the shell checks
// against the service's rules (a copy's shape) it checks itself. Left to
// undo (issue 34): the views that show resources (views/columns,
// views/detail, …) import api for their types.
func layers() map[string][]string {
	base := []string{"safe", "text", "keymap", "theme"}
	return map[string][]string{
		// Leaves: facts and helpers that know nothing of canopy (theme and saved
		// use lazyregexp, a leaf below them).
		"resource": nil, "files": nil, "keymap": nil, "lazyregexp": nil,
		"theme": {"lazyregexp"}, "saved": {"lazyregexp"},
		"safe": nil, "text": nil, "views/filter": nil, "views/viewstest": nil,
		// The API client, what it is checked against, and what reads it.
		"api":          {"files", "lazyregexp"},
		"api/emulator": {"api", "lazyregexp"},
		"api/apitest":  nil,
		"census":       {"api"},
		"plugin":       {"lazyregexp", "resource"},
		"state":        {"files"},
		// The screens: each view knows the base, the api's types, and the
		// views below it; none knows ui or cli.
		"views":          base,
		"views/paging":   {"api"},
		"views/advisory": {"api", "census", "lazyregexp", "safe"}, // an advisory's status is in census's words
		"views/identity": {"api", "safe"},
		"views/...":      append([]string{"api", "census", "lazyregexp", "views", "views/..."}, base...),
		// The shell, and the commands.
		"ui":           {"api", "census", "keymap", "lazyregexp", "plugin", "resource", "safe", "saved", "state", "text", "theme", "views", "views/..."},
		"cli/exit":     {"api", "safe"},
		"cli/program":  {"api", "cli/exit", "files", "theme", "safe"},
		"cli/config":   {"api", "files", "keymap", "lazyregexp", "plugin", "resource", "saved", "theme"},
		"cli":          {"api", "api/emulator", "census", "cli/...", "files", "keymap", "lazyregexp", "resource", "safe", "saved", "state", "text", "theme", "ui", "views", "views/..."},
		"":             {"cli", "cli/exit"},
		"e2e":          {"cli", "cli/exit"},
		"e2e/maxrss":   nil,
		"e2e/teapeer":  nil,
		"plugin/...":   nil,
		"api/testdata": nil,
	}
}

// allowed reports whether pkg may import dep (both without "canopy/").
func allowed(rules map[string][]string, pkg, dep string) (bool, bool) {
	list, ok := rules[pkg]
	for prefix, l := range rules {
		if p, wild := strings.CutSuffix(prefix, "/..."); !ok && wild && strings.HasPrefix(pkg, p+"/") {
			list, ok = l, true
		}
	}
	if !ok {
		return false, false
	}
	return slices.ContainsFunc(list, func(a string) bool {
		p, wild := strings.CutSuffix(a, "/...")
		return a == dep || wild && strings.HasPrefix(dep, p+"/")
	}), true
}

// TestLayers holds every import between canopy's packages to layers.
func TestLayers(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}`, "canopy/...").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	rules := layers()
	for _, edge := range [][2]string{{"views/table", "ui"}, {"api", "views"}, {"resource", "api"}, {"views/detail", "cli/config"}, {"views", "api"}} {
		if may, _ := allowed(rules, edge[0], edge[1]); may {
			t.Fatalf("the layers allow %s to import %s", edge[0], edge[1])
		}
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		pkg := strings.TrimPrefix(strings.TrimPrefix(fields[0], "canopy"), "/")
		for _, imp := range fields[1:] {
			dep, ok := strings.CutPrefix(imp, "canopy/")
			if !ok {
				continue
			}
			may, known := allowed(rules, pkg, dep)
			switch {
			case !known:
				t.Errorf("%s is in no layer: say in layers() what it may import", "canopy/"+pkg)
			case !may:
				t.Errorf("canopy/%s imports canopy/%s, which its layer does not allow", pkg, dep)
			}
		}
	}
}
