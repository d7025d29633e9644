package emulator

import (
	"strings"
	"testing"
)

// versionPairs are versions whose keys differ in every way the reader
// could get wrong: runs of digits shorter, as long as and longer than
// the padding, leading zeros, a key that is the other's prefix, letters
// against digits, an empty version.
var versionPairs = [][2]string{
	{"2.10.0", "2.9.1"}, {"1.0", "1.0.0"}, {"1", "01"}, {"", "0"}, {"", ""},
	{"1.2.3-rc1", "1.2.3-rc10"}, {"1.2.3", "1.2.3-beta"}, {"v1", "1"},
	{"1234567890123", "999999999999"}, {"123456789012", "0123456789012"},
	{"20240101.1", "20231231.12"}, {"a", "b"}, {"1a2", "1a10"}, {"0.0.0", "0..0"},
}

func TestVersionKeysCompareAsTheKeysDo(t *testing.T) {
	for _, p := range versionPairs {
		for _, q := range [][2]string{p, {p[1], p[0]}, {p[0], p[0]}} {
			want := strings.Compare(versionKey(q[0]), versionKey(q[1]))
			if got := compareVersionKeys(q[0], q[1]); got != want {
				t.Errorf("compareVersionKeys(%q, %q) = %d, want %d (keys %q, %q)", q[0], q[1], got, want,
					versionKey(q[0]), versionKey(q[1]))
			}
		}
	}
}

func FuzzVersionKeysCompareAsTheKeysDo(f *testing.F) {
	for _, p := range versionPairs {
		f.Add(p[0], p[1])
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		if got, want := compareVersionKeys(a, b), strings.Compare(versionKey(a), versionKey(b)); got != want {
			t.Fatalf("compareVersionKeys(%q, %q) = %d, want %d", a, b, got, want)
		}
	})
}
