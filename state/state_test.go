package state

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
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
	if err := s.Save(t.Context(), "https://api", one); err != nil {
		t.Fatal(err)
	}
	if err := s.Save(t.Context(), "https://api", two); err != nil {
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
		if err := s.Save(t.Context(), "api", Session{OrgUID: fmt.Sprint("org", i), Open: open, Saved: t0.Add(time.Duration(i) * time.Minute)}); err != nil {
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
		s.Save(t.Context(), fmt.Sprint("api", i), Session{OrgUID: "o", Saved: t0.Add(time.Hour + time.Duration(i)*time.Minute)})
	}
	all, _ := s.read()
	if len(all) != maxAPIs {
		t.Errorf("%d APIs kept", len(all))
	}
}

// TestAFileCanopyCannotReadIsNone: garbage, a huge file, a directory or a
// FIFO is nothing kept (said by Load's error, at once); the next Save
// replaces garbage, and leaves what it cannot read as it is, saying why.
func TestAFileCanopyCannotReadIsNone(t *testing.T) {
	for name, c := range map[string]struct {
		write func(path string) error
		kept  string // what Save says of a file it leaves
	}{
		"garbage": {write: func(p string) error { return os.WriteFile(p, []byte("{not json"), 0o600) }},
		"huge": {func(p string) error {
			return os.WriteFile(p, []byte(`{"a":"`+strings.Repeat("x", maxBytes)+`"}`), 0o600)
		}, "is larger than 1024 KiB"},
		"a dir":  {func(p string) error { return os.Mkdir(p, 0o700) }, "is a directory, not a regular file"},
		"a FIFO": {func(p string) error { return syscall.Mkfifo(p, 0o600) }, "is a named pipe (FIFO), not a regular file"},
	} {
		dir := t.TempDir()
		s := Open(dir)
		if err := c.write(s.Path()); err != nil {
			t.Fatal(err)
		}
		if a, err := s.Load("api"); err == nil || len(a.Orgs) != 0 {
			t.Errorf("%s: %+v %v", name, a, err)
		}
		before, _ := os.Lstat(s.Path())
		err := s.Save(t.Context(), "api", Session{OrgUID: "o", Saved: t0})
		if c.kept != "" {
			after, _ := os.Lstat(s.Path())
			if err == nil || !strings.Contains(err.Error(), "the session was not kept: "+s.Path()+" "+c.kept) || !os.SameFile(before, after) {
				t.Errorf("%s: %v", name, err)
			}
			continue
		}
		if a, _ := s.Load("api"); err != nil || a.LastOrg != "o" {
			t.Errorf("%s: not replaced: %v", name, err)
		}
		if left, _ := filepath.Glob(filepath.Join(dir, ".canopy-*")); len(left) != 0 {
			t.Errorf("%s: temporary files left: %v", name, left)
		}
	}
}

// TestSessionsSavedAtOnceAreAllKept: canopy processes quitting at once
// keep every one's session. The processes are this test binary run again,
// each saving one session (saveAndExit).
func TestSessionsSavedAtOnceAreAllKept(t *testing.T) {
	dir := t.TempDir()
	const quitting = 12
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range quitting {
		cmd := exec.Command(os.Args[0], "-test.run=^TestSessionsSavedAtOnceAreAllKept$")
		cmd.Env = append(os.Environ(), saveEnv+"="+dir+"|"+fmt.Sprint("org", i))
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("process %d: %v\n%s", i, err, out)
			}
		}()
	}
	close(start)
	wg.Wait()
	a, err := Open(dir).Load("api")
	if err != nil || len(a.Orgs) != quitting {
		t.Errorf("%d sessions kept of %d: %v", len(a.Orgs), quitting, err)
	}
}

// saveEnv, in a process of TestSessionsSavedAtOnceAreAllKept, is the
// state directory and the organization whose session it saves.
const saveEnv = "CANOPY_STATE_TEST_SAVE"

func TestMain(m *testing.M) {
	if v := os.Getenv(saveEnv); v != "" {
		dir, org, _ := strings.Cut(v, "|")
		if err := Open(dir).Save(context.Background(), "api", Session{OrgUID: org, Saved: time.Now()}); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}
