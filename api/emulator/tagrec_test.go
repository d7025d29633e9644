package emulator

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unsafe"
)

// TestTagUIDsCompareAsStrings: a tag's uid, kept as its repo's and a
// number, orders against uids and other tags' exactly as the strings would,
// repos whose uids begin one another's included.
func TestTagUIDsCompareAsStrings(t *testing.T) {
	t.Parallel()
	st := newStore(1)
	parents := []string{"a", "a/b", "a/b/c", "a/b0", "a/b/", "a/b/0000000000000000", "a/b/ffffffffffffffff", "b", "a/b/0000000000000000/x", ""}
	rng := rand.New(rand.NewPCG(1, 2))
	suffixes := []uint64{0, 1, 15, 16, 1 << 63, ^uint64(0), rng.Uint64(), rng.Uint64()}
	var tags []tagRec
	for _, p := range parents {
		for _, v := range suffixes {
			tags = append(tags, st.newTag(p, v, "x", [32]byte{}, 0, 0, false))
		}
	}
	sign := func(n int) int { return max(-1, min(1, n)) }
	for i := range tags {
		a := &tags[i]
		ua := st.tagUID(a)
		if want := st.tagParents.at(a.Parent) + "/" + strings.Repeat("0", 16-len(hexOf(a.Suffix))) + hexOf(a.Suffix); ua != want {
			t.Fatalf("uid %q, want %q", ua, want)
		}
		for j := range tags {
			b := &tags[j]
			ub := st.tagUID(b)
			if got, want := sign(st.cmpTagUIDs(a, b)), strings.Compare(ua, ub); got != want {
				t.Errorf("cmpTagUIDs(%q, %q) = %d, want %d", ua, ub, got, want)
			}
			for _, s := range []string{ub, ub[:len(ub)/2], ub + "0", st.tagParents.at(b.Parent)} {
				if got, want := sign(st.cmpTagUID(a, s)), strings.Compare(ua, s); got != want {
					t.Errorf("cmpTagUID(%q, %q) = %d, want %d", ua, s, got, want)
				}
			}
		}
	}
}

func hexOf(v uint64) string {
	const digits = "0123456789abcdef"
	if v == 0 {
		return "0"
	}
	var out []byte
	for ; v > 0; v >>= 4 {
		out = append([]byte{digits[v&15]}, out...)
	}
	return string(out)
}

// TestDigestsReadAsWritten: a digest reads back only as the API writes it.
func TestDigestsReadAsWritten(t *testing.T) {
	t.Parallel()
	d := randomDigest(rand.New(rand.NewPCG(3, 4)).Uint64)
	s := digestString(d)
	if got, ok := parseDigest(s); !ok || got != d {
		t.Fatalf("parseDigest(%q) = %x, %v", s, got, ok)
	}
	for _, bad := range []string{strings.ToUpper(s), "sha256:" + strings.ToUpper(s[7:]), s[:70], s + "0", "sha512:" + s[7:], ""} {
		if _, ok := parseDigest(bad); ok {
			t.Errorf("parseDigest(%q) accepted", bad)
		}
	}
}

// TestTagRecordSize: a tag's record is 64 bytes (a million of them are
// most of the large organization).
func TestTagRecordSize(t *testing.T) {
	if n := unsafe.Sizeof(tagRec{}); n != 64 {
		t.Errorf("a tag's record is %d bytes, want 64", n)
	}
}
