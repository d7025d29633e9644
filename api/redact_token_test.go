package api

import "testing"

// A token is cut out wherever it stands, also glued to a word, never when
// too short to be one, and a second pass changes nothing.
func TestRedactTokens(t *testing.T) {
	t.Parallel()
	const tok = "s3cr3tT0ken42"
	for _, tc := range []struct{ in, secret, want string }{
		{"Invalid argument", "t", "Invalid argument"},
		{"bad token " + tok + ".", tok, "bad token [redacted]."},
		{`{"auth":"Bearer ` + tok + `"}`, tok, `{"auth":"Bearer [redacted]"}`},
		{"GET /x?token=" + tok + "&y=1", tok, "GET /x?token=[redacted]&y=1"},
		{"x" + tok + "y and " + tok, tok, "x[redacted]y and [redacted]"},
		{"0" + tok, tok, "0[redacted]"},
		{"[redacted]", "redacted", "[redacted]"},
		{"eyJhbGciOi.eyJzdWIi.c2ln in it", "", "[redacted] in it"},
	} {
		got := redactString(tc.in, tc.secret)
		if got != tc.want {
			t.Errorf("redactString(%q, %q) = %q, want %q", tc.in, tc.secret, got, tc.want)
		}
		if again := redactString(got, tc.secret); again != got {
			t.Errorf("a second pass changed %q to %q", got, again)
		}
	}
}
