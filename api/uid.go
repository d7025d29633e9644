package api

import (
	"canopy/lazyregexp"
	"errors"
	"strings"
)

// RootUIDLen is the length of a root group (organization) uid: 40 hex digits.
const RootUIDLen = 40

var groupUIDPattern = lazyregexp.New(`^[0-9a-f]{40}(/[0-9a-f]{16})*$`)

// IsGroupUID reports whether uid has the shape of a group uid: 40 hex digits,
// then any number of "/" + 16 hex digits.
func IsGroupUID(uid string) bool { return groupUIDPattern.MatchString(uid) }

// ParentUID is the uid without its last segment ("" for a root uid).
func ParentUID(uid string) string {
	if i := strings.LastIndexByte(uid, '/'); i >= 0 {
		return uid[:i]
	}
	return ""
}

// RootUID is the organization part of uid: its first segment.
func RootUID(uid string) string {
	if i := strings.IndexByte(uid, '/'); i >= 0 {
		return uid[:i]
	}
	return uid
}

// IsDescendant reports whether uid lies strictly below ancestor.
func IsDescendant(uid, ancestor string) bool {
	return len(uid) > len(ancestor)+1 && strings.HasPrefix(uid, ancestor) && uid[len(ancestor)] == '/'
}

// IsChild reports whether uid lies directly below parent.
func IsChild(uid, parent string) bool {
	return IsDescendant(uid, parent) && strings.IndexByte(uid[len(parent)+1:], '/') < 0
}

// ErrInvalidUID is the cause of the error of a call whose uid has an empty,
// "." or ".." segment: a proxy or server that resolves dot segments would
// send such a request elsewhere (DeleteRepo of "org/../../iam/v2/groups/org/g"
// would delete a group), so it is refused before anything is sent.
var ErrInvalidUID = errors.New(`invalid uid: a segment is empty, "." or ".." (nothing was sent)`)

// checkPath refuses a request path with an empty, "." or ".." segment
// (after its leading "/").
func checkPath(p string) error {
	for _, seg := range strings.Split(strings.TrimPrefix(p, "/"), "/") {
		if seg == "" || seg == "." || seg == ".." {
			return ErrInvalidUID
		}
	}
	return nil
}
