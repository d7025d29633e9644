package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"canopy/saved"
)

const commented = `# my canopy
theme: dark   # dark is easier at night

keys:
  delete: [ctrl+d]   # not d

views:
  # the python tags I watch
  - name: py
    of: tags
    in: python
    deprecated: true
  - name: ml
    of: repos
    filter: ml

# colors last
colors:
  accent: "#ff8800"
`

// TestSaveViewKeepsTheRest: a saved view replaces its namesake or is
// added to views:, and every other line of the file (comments, order,
// spacing) stays as it was.
func TestSaveViewKeepsTheRest(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(path, []byte(commented), 0o640); err != nil {
		t.Fatal(err)
	}
	add := saved.View{Name: "dep", Of: "tags", Order: "name desc", Columns: []string{"tag", "repo"}, Filter: "!dev", Deprecated: true}
	if err := SaveView(t.Context(), path, add); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	want := strings.Replace(commented, "    filter: ml\n", "    filter: ml\n  - name: dep\n    of: tags\n    order: name desc\n    columns: [tag, repo]\n    filter: '!dev'\n    deprecated: true\n", 1)
	if string(b) != want {
		t.Fatalf("after adding:\n%s\nwant:\n%s", b, want)
	}
	replace := saved.View{Name: "py", Of: "tags", In: "python", Filter: "3.1"}
	if err := SaveView(t.Context(), path, replace); err != nil {
		t.Fatal(err)
	}
	b, _ = os.ReadFile(path)
	want = strings.Replace(want, "  - name: py\n    of: tags\n    in: python\n    deprecated: true\n", "  - name: py\n    of: tags\n    in: python\n    filter: \"3.1\"\n", 1)
	if string(b) != want {
		t.Fatalf("after replacing:\n%s\nwant:\n%s", b, want)
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o640 {
		t.Errorf("mode %v", st.Mode())
	}
	fc, err := parseConfig(path, b)
	if err != nil || len(fc.views) != 3 || fc.views[2].Filter != "!dev" || fc.views[0].Filter != "3.1" || fc.views[0].Deprecated {
		t.Fatalf("read back: %+v %v", fc.views, err)
	}
}

func TestSaveViewMakesTheList(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{
		"none":    "", // no file at all
		"no list": "theme: dark\n# end",
		"empty":   "views:\ntheme: dark\n",
		"flow":    "views: []\ntheme: dark\n",
	} {
		path := filepath.Join(dir, strings.ReplaceAll(name, " ", "-"), "config.yaml")
		if body != "" {
			os.MkdirAll(filepath.Dir(path), 0o700)
			os.WriteFile(path, []byte(body), 0o600)
		}
		if err := SaveView(t.Context(), path, saved.View{Name: "mine", Of: "repos"}); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		b, _ := os.ReadFile(path)
		fc, err := parseConfig(path, b)
		if err != nil || len(fc.views) != 1 || fc.views[0].Name != "mine" {
			t.Errorf("%s: %q read back as %+v %v", name, b, fc, err)
		}
		if strings.Contains(body, "# end") && !strings.Contains(string(b), "# end\n") {
			t.Errorf("%s: the comment went: %q", name, b)
		}
	}
	// A views: canopy cannot add to is left alone, and said.
	path := filepath.Join(dir, "odd.yaml")
	os.WriteFile(path, []byte("views: {a: b}\n"), 0o600)
	if err := SaveView(t.Context(), path, saved.View{Name: "mine", Of: "repos"}); err == nil {
		t.Error("a mapping under views: was written over")
	}
}

func TestViewMistakesNameTheirLine(t *testing.T) {
	for body, says := range map[string]string{
		"views:\n  - of: tags\n":                                          ":2: views: a view without a name",
		"views:\n  - name: x\n":                                           ":2: views: x: no of:",
		"views:\n  - name: x\n    of: tags\n    sort: name\n":             ":4: views: unknown field \"sort\"",
		"views:\n  - name: x\n    of: tags\n    columns: tag\n":           ":4: views: x: columns: want a list",
		"views:\n  - name: x\n    of: tags\n  - name: x\n    of: repos\n": ":4: views: x is given twice",
	} {
		_, err := parseConfig("c.yaml", []byte(body))
		if err == nil || !strings.Contains(err.Error(), says) {
			t.Errorf("%q: %v, want %q", body, err, says)
		}
	}
}

// TestSaveViewWritesThroughALink: a config that is a link (dotfiles) is
// written where the link leads, its target made when it is not there yet;
// the link stays.
func TestSaveViewWritesThroughALink(t *testing.T) {
	dir := t.TempDir()
	for name, exists := range map[string]bool{"existing": true, "dangling": false} {
		target := filepath.Join(dir, name, "dotfiles", "canopy.yaml")
		if err := os.MkdirAll(filepath.Dir(target), 0o700); err != nil {
			t.Fatal(err)
		}
		if exists {
			if err := os.WriteFile(target, []byte("theme: dark\n"), 0o640); err != nil {
				t.Fatal(err)
			}
		}
		link := filepath.Join(dir, name, "config.yaml")
		if err := os.Symlink("dotfiles/canopy.yaml", link); err != nil {
			t.Fatal(err)
		}
		if err := SaveView(t.Context(), link, saved.View{Name: "mine", Of: "repos"}); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if info, err := os.Lstat(link); err != nil || info.Mode()&os.ModeSymlink == 0 {
			t.Errorf("%s: the link was replaced", name)
		}
		if b, err := os.ReadFile(target); err != nil || !strings.Contains(string(b), "- name: mine") {
			t.Errorf("%s: the target holds %q (%v)", name, b, err)
		}
	}
}
