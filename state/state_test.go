package state

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var t0 = time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)

func TestSaveThenLoad(t *testing.T) {
	s := Open(t.TempDir())
	if a, err := s.Load("https://api"); err != nil || a.LastOrg != "" {
		t.Fatalf("nothing kept yet: %+v %v", a, err)
	}
	one := Session{OrgUID: "o1", OrgName: "acme", Open: [][]string{{"o1", "o1/a"}}, Cursor: []string{"o1", "o1/a"}, Command: "tags python", Saved: t0}
	two := Session{OrgUID: "o2", OrgName: "globex", Saved: t0.Add(time.Minute)}
	if err := s.Save("https://api", one); err != nil {
		t.Fatal(err)
	}
	if err := s.Save("https://api", two); err != nil {
		t.Fatal(err)
	}
	a, err := s.Load("https://api")
	if err != nil || a.LastOrg != "o2" || a.Orgs["o1"].Command != "tags python" || len(a.Orgs["o1"].Open) != 1 || a.Orgs["o2"].OrgName != "globex" {
		t.Fatalf("kept %+v %v", a, err)
	}
	if other, _ := s.Load("demo"); len(other.Orgs) != 0 {
		t.Errorf("another API sees %+v", other)
	}
	st, err := os.Stat(s.Path())
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("the file: %v %v", st.Mode(), err)
	}
}

// TestWhatIsKeptIsBounded: a session's branches, the organizations per
// API and the APIs are bounded, the newest kept.
func TestWhatIsKeptIsBounded(t *testing.T) {
	s := Open(t.TempDir())
	var open [][]string
	for i := range 100 {
		open = append(open, []string{"o", fmt.Sprint(i)})
	}
	open = append([][]string{make([]string, maxPath+1)}, open...)
	for i := range maxOrgs + 5 {
		if err := s.Save("api", Session{OrgUID: fmt.Sprint("org", i), Open: open, Saved: t0.Add(time.Duration(i) * time.Minute)}); err != nil {
			t.Fatal(err)
		}
	}
	a, _ := s.Load("api")
	if len(a.Orgs) != maxOrgs || a.LastOrg != fmt.Sprint("org", maxOrgs+4) {
		t.Fatalf("%d orgs kept, last %s", len(a.Orgs), a.LastOrg)
	}
	if _, ok := a.Orgs["org0"]; ok {
		t.Error("the oldest organization was kept")
	}
	if got := a.Orgs["org9"].Open; len(got) != MaxBranches || len(got[0]) != 2 {
		t.Errorf("branches kept: %d, first %q", len(got), got[0])
	}
	for i := range maxAPIs + 3 {
		s.Save(fmt.Sprint("api", i), Session{OrgUID: "o", Saved: t0.Add(time.Hour + time.Duration(i)*time.Minute)})
	}
	all, _ := s.read()
	if len(all) != maxAPIs {
		t.Errorf("%d APIs kept", len(all))
	}
}

// TestAFileCanopyCannotReadIsNone: garbage, a huge file or a FIFO is
// nothing kept (said by Load's error), and the next Save replaces it.
func TestAFileCanopyCannotReadIsNone(t *testing.T) {
	for name, write := range map[string]func(path string) error{
		"garbage": func(p string) error { return os.WriteFile(p, []byte("{not json"), 0o600) },
		"huge": func(p string) error {
			return os.WriteFile(p, []byte(`{"a":"`+strings.Repeat("x", maxBytes)+`"}`), 0o600)
		},
		"a dir": func(p string) error { return os.Mkdir(p, 0o700) },
	} {
		dir := t.TempDir()
		s := Open(dir)
		if err := write(s.Path()); err != nil {
			t.Fatal(err)
		}
		if a, err := s.Load("api"); err == nil || len(a.Orgs) != 0 {
			t.Errorf("%s: %+v %v", name, a, err)
		}
		err := s.Save("api", Session{OrgUID: "o", Saved: t0})
		if name == "a dir" {
			continue // a directory in the way is not removed
		}
		if a, _ := s.Load("api"); err != nil || a.LastOrg != "o" {
			t.Errorf("%s: not replaced: %v", name, err)
		}
		if left, _ := filepath.Glob(filepath.Join(dir, ".sessions-*")); len(left) != 0 {
			t.Errorf("%s: temporary files left: %v", name, left)
		}
	}
}
