package emulator

import (
	"cmp"
	"encoding/binary"
	"encoding/hex"
	"strings"
)

// pool interns strings: each is kept once, and known by its index.
type pool struct {
	strs []string
	ids  map[string]int32
}

func newPool() pool { return pool{ids: map[string]int32{}} }

// id is the index of s, added when new.
func (p *pool) id(s string) int32 {
	if id, ok := p.ids[s]; ok {
		return id
	}
	if len(p.strs) >= nameMask {
		// A tag keeps a name's index in 29 bits (nameBits).
		panic("emulator: a pool of over 2²⁹ strings")
	}
	p.strs = append(p.strs, s)
	id := int32(len(p.strs) - 1)
	p.ids[s] = id
	return id
}

func (p *pool) at(id int32) string { return p.strs[id] }

// newTag is a tag record of a repo: its uid is repo + "/" + the suffix in
// 16 hex digits.
func (s *store) newTag(repo string, suffix uint64, name string, digest [32]byte, create, update int64, deprecated bool) tagRec {
	word := uint32(s.tagNames.id(name)) | uint32(tagClass(name))<<nameBits
	if deprecated {
		word |= deprecatedFlag
	}
	return tagRec{Parent: s.tagParents.id(repo), Name: word, Suffix: suffix, Digest: digest, Create: create, Update: update}
}

func (s *store) tagName(t *tagRec) string { return s.tagNames.at(t.nameID()) }

// tagUID makes a tag's uid.
func (s *store) tagUID(t *tagRec) string {
	var b strings.Builder
	s.writeUID(&b, t, 0)
	return b.String()
}

// writeUID writes a tag's uid to b, grown for extra bytes more.
func (s *store) writeUID(b *strings.Builder, t *tagRec, extra int) {
	p := s.tagParents.at(t.Parent)
	seg := segment(t.Suffix)
	b.Grow(len(p) + len(seg) + extra)
	b.WriteString(p)
	b.Write(seg[:])
}

// pageBytesPerTag is what a tag's uid and digest take, about (a repo in
// a team folder): a list's buffer for them is grown for its page at once.
const pageBytesPerTag = 192

// segment is "/" and v in 16 lower-case hex digits: a tag uid's last
// segment, which orders as v does.
func segment(v uint64) [17]byte {
	const digits = "0123456789abcdef"
	var b [17]byte
	b[0] = '/'
	for i := 16; i > 0; i-- {
		b[i] = digits[v&15]
		v >>= 4
	}
	return b
}

// cmpTagUID compares a tag's uid with uid, as strings, without making it.
func (s *store) cmpTagUID(t *tagRec, uid string) int {
	return cmpJoined(s.tagParents.at(t.Parent), t.Suffix, uid)
}

// cmpJoined compares p + segment(v) with s.
func cmpJoined(p string, v uint64, s string) int {
	n := min(len(p), len(s))
	if r := strings.Compare(p[:n], s[:n]); r != 0 {
		return r
	}
	if len(s) <= len(p) {
		return 1 // s begins the uid
	}
	// Byte by byte: a string of seg would be made on the heap.
	seg, rest := segment(v), s[len(p):]
	for i := range min(len(seg), len(rest)) {
		if seg[i] != rest[i] {
			return cmp.Compare(seg[i], rest[i])
		}
	}
	return cmp.Compare(len(seg), len(rest))
}

// cmpTagUIDs compares two tags' uids, as strings, without making them:
// in one repo their segments decide, in numbers; else their repos' uids,
// unless one begins the other (no seeded or created uid does).
func (s *store) cmpTagUIDs(a, b *tagRec) int {
	if a.Parent == b.Parent {
		return cmp.Compare(a.Suffix, b.Suffix)
	}
	pa, pb := s.tagParents.at(a.Parent), s.tagParents.at(b.Parent)
	n := min(len(pa), len(pb))
	if r := strings.Compare(pa[:n], pb[:n]); r != 0 {
		return r
	}
	return cmpJoined(pa, a.Suffix, s.tagUID(b))
}

// digestLen is the length of a digest as the API writes it.
const digestLen = len("sha256:") + 64

// digestString is a digest as the API writes it.
func digestString(d [32]byte) string {
	var b strings.Builder
	b.Grow(digestLen)
	writeDigest(&b, d)
	return b.String()
}

func writeDigest(b *strings.Builder, d [32]byte) {
	var h [64]byte
	hex.Encode(h[:], d[:])
	b.WriteString("sha256:")
	b.Write(h[:])
}

// parseDigest reads a digest written as digestString writes it (and no
// other way: upper-case hex is another digest).
func parseDigest(s string) ([32]byte, bool) {
	var d [32]byte
	h, ok := strings.CutPrefix(s, "sha256:")
	if !ok || len(h) != 64 {
		return d, false
	}
	if _, err := hex.Decode(d[:], []byte(h)); err != nil || digestString(d) != s {
		return d, false
	}
	return d, true
}

// randomDigest is a digest of four random numbers, as the seed once wrote
// them in hex: the same draws give the same digest.
func randomDigest(next func() uint64) [32]byte {
	var d [32]byte
	for i := range 4 {
		binary.BigEndian.PutUint64(d[8*i:], next())
	}
	return d
}
