package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// nonASCII is the first character of s beyond ASCII, "" when there is none.
func nonASCII(s string) string {
	for _, r := range s {
		if r > 0x7e {
			return string(r)
		}
	}
	return ""
}

// TestDemoWithoutUTF8Locale: a locale that is not UTF-8 (as tmux decides,
// from LC_ALL, LC_CTYPE, LANG) gets an all-ASCII screen: pane rule,
// separators, arrows in key labels and sort orders, ellipses, overlay
// borders. The same screens in a UTF-8 locale keep their Unicode look.
func TestDemoWithoutUTF8Locale(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		env   []string
		ascii bool
	}{
		{"LANG=C", []string{"LANG=C"}, true},
		{"LC_ALL=POSIX over a UTF-8 LANG", []string{"LC_ALL=POSIX", "LANG=en_US.UTF-8"}, true},
		{"TERM=linux LANG=C", []string{"TERM=linux", "LANG=C"}, true},
		{"LANG=C.UTF-8 (control)", nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tt := startCanopy(t, termOptions{width: 100, height: 30, env: tc.env})
			rule := "│"
			if tc.ascii {
				rule = "|"
			}
			check := func(where string, s string) {
				t.Helper()
				c := nonASCII(s)
				switch {
				case tc.ascii && c != "":
					t.Errorf("%s: %q on an ASCII screen:\n%s", where, c, frame(s))
				case !tc.ascii && c == "":
					t.Errorf("%s: no Unicode at all; the check would prove nothing:\n%s", where, frame(s))
				}
			}
			s := tt.waitFor(func(s string) bool { return strings.Contains(s, rule+" details: acme.example") }, "the tree")
			check("tree", s)
			s = tt.press(func(s string) bool { return strings.Contains(s, "Keys in") }, "help", "?")
			check("help", s)
			tt.send("Escape")
			tt.waitFor(func(s string) bool { return !strings.Contains(s, "Keys in") }, "help to close")
			tt.command("repos")
			s = tt.waitFor(func(s string) bool { return tableHeaderRE.MatchString(s) && strings.Contains(s, "63/63 loaded") }, "the repos table")
			check("repos table", s)
			if tc.ascii && !strings.Contains(s, "sort: name ^") {
				t.Errorf("the sort order is not drawn in ASCII:\n%s", frame(s))
			}
			tt.send("q")
			if code := tt.waitExit(); code != 0 {
				t.Errorf("exit %d", code)
			}
		})
	}
}

// TestDemoMouseSetting: the mouse is captured by default (wheel scrolls,
// click selects); mouse: false in the config, CANOPY_MOUSE=false or
// --mouse=false leave it to the terminal, so its own text selection works.
func TestDemoMouseSetting(t *testing.T) {
	t.Parallel()
	cfg := t.TempDir()
	if err := os.MkdirAll(filepath.Join(cfg, "canopy"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(cfg, "canopy", "config.yaml"), []byte("mouse: false\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		env     []string
		args    []string
		capture bool
	}{
		{"default", nil, nil, true},
		{"config file", []string{"XDG_CONFIG_HOME=" + cfg}, nil, false},
		{"env", []string{"CANOPY_MOUSE=false"}, nil, false},
		{"flag", nil, []string{"demo", "--mouse=false"}, false},
		{"flag over the config file", []string{"XDG_CONFIG_HOME=" + cfg}, []string{"demo", "--mouse"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tt := startCanopy(t, termOptions{width: 100, height: 30, env: tc.env, args: tc.args})
			tt.waitTree()
			flags := tt.paneFlags("mouse_standard_flag", "mouse_button_flag", "mouse_any_flag", "mouse_sgr_flag")
			on := flags["mouse_button_flag"] == "1" || flags["mouse_any_flag"] == "1" || flags["mouse_standard_flag"] == "1"
			if on != tc.capture {
				t.Errorf("mouse reporting %v, want %v (%v)", on, tc.capture, flags)
			}
			tt.send("q")
			if code := tt.waitExit(); code != 0 {
				t.Errorf("exit %d", code)
			}
		})
	}
}
