package columns

import (
	"cmp"
	"slices"
	"strings"
)

// ByVersion orders rows by the version their name says, as people read
// versions: `latest` (and its variants, `latest-dev`) first, then versions
// by their numbers (`2.0` before `10.0`, `3.12` before `3.12.1`), a
// variant right after its version (`3.12`, `3.12-dev`, `3.12.1`), then
// names that are no version, alphabetically. It gives the positions of
// items in that order (a table's local order).
func ByVersion[T any](name func(*T) string) func(items []*T) []int {
	return func(items []*T) []int {
		keys := make([]versionKey, len(items))
		perm := make([]int, len(items))
		for i, it := range items {
			keys[i] = versionOf(name(it))
			perm[i] = i
		}
		slices.SortStableFunc(perm, func(a, b int) int { return keys[a].compare(&keys[b]) })
		return perm
	}
}

// versionKey is what a name says of its version: its class (latest, a
// variant of latest, a version, no version), the numbers of a version
// (digit strings, compared as numbers of any length) and what follows them.
type versionKey struct {
	class int
	nums  []string
	rest  string
	name  string
}

const (
	classLatest = iota
	classLatestVariant
	classVersion
	classOther
)

func versionOf(name string) versionKey {
	k := versionKey{name: name, class: classOther, rest: name}
	switch {
	case name == "latest":
		k.class = classLatest
		return k
	case strings.HasPrefix(name, "latest-"):
		k.class = classLatestVariant
		return k
	}
	s := strings.TrimPrefix(name, "v")
	for {
		end := 0
		for end < len(s) && s[end] >= '0' && s[end] <= '9' {
			end++
		}
		if end == 0 {
			break
		}
		k.nums = append(k.nums, strings.TrimLeft(s[:end], "0"))
		s = s[end:]
		if len(s) < 2 || s[0] != '.' || s[1] < '0' || s[1] > '9' {
			break
		}
		s = s[1:]
	}
	if len(k.nums) > 0 {
		k.class, k.rest = classVersion, s
	}
	return k
}

func (k *versionKey) compare(o *versionKey) int {
	if c := cmp.Compare(k.class, o.class); c != 0 {
		return c
	}
	for i := range min(len(k.nums), len(o.nums)) {
		a, b := k.nums[i], o.nums[i]
		if c := cmp.Compare(len(a), len(b)); c != 0 {
			return c // no leading zeros: the longer number is the larger
		}
		if c := strings.Compare(a, b); c != 0 {
			return c
		}
	}
	if c := cmp.Compare(len(k.nums), len(o.nums)); c != 0 {
		return c
	}
	if c := strings.Compare(k.rest, o.rest); c != 0 {
		return c
	}
	return strings.Compare(k.name, o.name)
}
