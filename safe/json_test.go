package safe

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestJSONIsInertAndSaysTheSame: hostile strings survive a JSON round trip
// through JSON unchanged, and the printed document holds nothing a
// terminal would act on.
func TestJSONIsInertAndSaysTheSame(t *testing.T) {
	in := []string{"plain", "esc \x1b]0;pwned\x07", "c1 \u009b2J", "bidi \u202etxt", "zw a\u200bb", "cgj adm\u034fin",
		"tag \U000E0041", "del \x7f", "emoji ❤\uFE0F", "line\u2028sep", "漢字"}
	enc, err := json.MarshalIndent(in, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	out := JSON(string(enc))
	for i, line := range strings.Split(out, "\n") {
		if String(line) != line {
			t.Errorf("line %d is not inert: %q", i, line)
		}
	}
	var back []string
	if err := json.Unmarshal([]byte(out), &back); err != nil {
		t.Fatal(err)
	}
	for i := range in {
		if back[i] != in[i] {
			t.Errorf("%q came back as %q", in[i], back[i])
		}
	}
}
