package program

import (
	"bytes"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"canopy/api"
	"canopy/cli/exit"
)

// bomb is a model that panics where told: "init", "update", "view", or in
// a command ("cmd", "batch", "sequence") started by its first message.
type bomb struct{ where string }

func (b bomb) Init() tea.Cmd {
	if b.where == "init" {
		panic("boom in init")
	}
	return func() tea.Msg { return "go" }
}

func (b bomb) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if msg != "go" {
		return b, nil
	}
	boom := func() tea.Msg { panic("boom in " + b.where) }
	switch b.where {
	case "update":
		panic("boom in update")
	case "cmd":
		return b, boom
	case "batch":
		return b, tea.Batch(func() tea.Msg { return nil }, boom)
	case "sequence":
		return b, tea.Sequence(func() tea.Msg { return nil }, boom)
	}
	return b, nil
}

func (b bomb) View() tea.View {
	if b.where == "view" {
		panic("boom in view")
	}
	return tea.NewView("ok")
}

// TestPanicIsReportedAndExitsOne runs a real program whose model panics in
// each place a panic can happen: the program ends (terminal restored by
// Bubble Tea), exit code 1, stderr names a crash report with the version,
// time, panic value and stack, readable only by the user.
func TestPanicIsReportedAndExitsOne(t *testing.T) {
	for _, where := range []string{"init", "update", "view", "cmd", "batch", "sequence"} {
		t.Run(where, func(t *testing.T) {
			dir := t.TempDir() + "/state"
			var stderr bytes.Buffer
			done := make(chan int, 1)
			go func() {
				done <- runProgram(t.Context(), bomb{where: where}, dir, &stderr,
					tea.WithInput(nil), tea.WithOutput(&bytes.Buffer{}), tea.WithoutSignalHandler())
			}()
			var code int
			select {
			case code = <-done:
			case <-time.After(patience):
				t.Fatal("the program did not end after a panic")
			}
			if code != exit.Failure {
				t.Errorf("exit code %d, want %d", code, exit.Failure)
			}
			m := regexp.MustCompile(`(?m)^canopy crashed: boom in ` + where + `\nreport: (\S+crash-\S+\.txt)\n$`).FindStringSubmatch(stderr.String())
			if m == nil {
				t.Fatalf("stderr %q names no report", stderr.String())
			}
			b, err := os.ReadFile(m[1])
			if err != nil {
				t.Fatal(err)
			}
			report := string(b)
			for _, want := range []string{"canopy " + api.Version + " crashed at ", "panic: boom in " + where, "goroutine ", "crash_test.go"} {
				if !strings.Contains(report, want) {
					t.Errorf("the report lacks %q:\n%s", want, report)
				}
			}
			if fi, err := os.Stat(m[1]); err != nil || fi.Mode().Perm() != 0o600 {
				t.Errorf("report mode: %v %v", fi, err)
			}
		})
	}
}

// TestNoPanicExitsZero: the guard changes nothing for a program that quits.
func TestNoPanicExitsZero(t *testing.T) {
	var stderr bytes.Buffer
	code := runProgram(t.Context(), quitter{}, t.TempDir(), &stderr, tea.WithInput(nil), tea.WithOutput(&bytes.Buffer{}))
	if code != exit.OK || stderr.Len() != 0 {
		t.Errorf("code %d, stderr %q", code, stderr.String())
	}
}

type quitter struct{}

func (quitter) Init() tea.Cmd                         { return tea.Sequence(func() tea.Msg { return nil }, tea.Quit) }
func (q quitter) Update(tea.Msg) (tea.Model, tea.Cmd) { return q, nil }
func (quitter) View() tea.View                        { return tea.NewView("") }

// hostilePanic panics in Update with a value holding server text.
type hostilePanic struct{}

func (hostilePanic) Init() tea.Cmd { return func() tea.Msg { return "go" } }
func (h hostilePanic) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if msg == "go" {
		panic("bad name \x1b]0;pwned\x07\u202e\nforged line")
	}
	return h, nil
}
func (hostilePanic) View() tea.View { return tea.NewView("") }

// TestPanicValueIsMadeSafe: a panic value holding server text reaches
// stderr and the report as markers, on one line.
func TestPanicValueIsMadeSafe(t *testing.T) {
	dir := t.TempDir()
	var stderr bytes.Buffer
	code := runProgram(t.Context(), hostilePanic{}, dir, &stderr, tea.WithInput(nil), tea.WithOutput(&bytes.Buffer{}), tea.WithoutSignalHandler())
	if code != exit.Failure {
		t.Fatalf("exit %d", code)
	}
	if !strings.Contains(stderr.String(), `canopy crashed: bad name ␛]0;pwned␇\u202e␊forged line`+"\n") {
		t.Errorf("stderr %q", stderr.String())
	}
	m := regexp.MustCompile(`report: (\S+)`).FindStringSubmatch(stderr.String())
	if m == nil {
		t.Fatal("no report")
	}
	b, _ := os.ReadFile(m[1])
	if strings.ContainsAny(string(b), "\x1b\x07\u202e") {
		t.Errorf("the report holds raw controls:\n%q", b)
	}
}

// TestCrashReportHidesURLPasswords: a panic whose value holds a URL with a
// password is reported on stderr and in the report without it.
func TestCrashReportHidesURLPasswords(t *testing.T) {
	const url = "http://alice:s3cret-pw-9f2@api.example"
	noPassword := func(t *testing.T, where, text string) {
		t.Helper()
		if strings.Contains(text, "s3cret-pw-9f2") || strings.Contains(text, "alice") {
			t.Errorf("%s shows the URL's user or password:\n%s", where, text)
		}
	}
	dir := t.TempDir()
	path, err := writeCrashReport(dir, &crash{value: "dial " + url + ": boom", stack: []byte("stack")}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	noPassword(t, "the crash report", string(b))
	if !strings.Contains(string(b), "panic: dial http://***@api.example: boom") {
		t.Errorf("report:\n%s", b)
	}
	var stderr bytes.Buffer
	exit.Sayf(&stderr, "canopy crashed: %v", "dial "+url)
	noPassword(t, "the crash line", stderr.String())
}
