package emulator

import (
	"crypto/sha256"
	"fmt"
	"slices"
	"testing"
	"time"
)

// TestSeededDataIsAsBefore pins what a seed makes: every repo (with its
// readme) and every tag (uid, name, digest, times, class and deprecation),
// hashed, at a fixed clock. The hashes are those of the code before the
// seeding was made cheaper (9c49ccc; the tags hashed by uid since every
// repo's tags are made when first asked for, those of d68d7f4, whose data
// is 9c49ccc's, hashed the same way): a change to how the data is drawn
// that changes the data fails here, whatever the tests of answers see.
func TestSeededDataIsAsBefore(t *testing.T) {
	want := map[string][2]string{
		"small": {"bd509f1ea714548c156b1891e375a796878b8f331c9facc29892fe95ffb94a57",
			"399d0de0f8e5bda1f0313156e3ff1573ee31239c1e724df049a8db91a1ec4abe"},
		"medium": {"7fc51835180bdb463ffc7578341f7b1a49dbaba13946f99756f6f245506c10a5",
			"a262da01c9fe32faa17ecff0d88c4830e806447ef37505743cf6b2bb4e93267f"},
	}
	for _, size := range []string{"small", "medium"} {
		if size == "medium" && testing.Short() {
			continue
		}
		repos, tags := seededHashes(t, size)
		if repos != want[size][0] || tags != want[size][1] {
			t.Errorf("%s: repos hash %s, tags hash %s; want %s, %s", size, repos, tags, want[size][0], want[size][1])
		}
	}
}

// seededHashes seeds an emulator of size, makes every tag and hashes its
// repos and its tags.
func seededHashes(t *testing.T, size string) (repos, tags string) {
	t.Helper()
	srv, err := New(Options{Seed: 1, Size: size, Now: func() time.Time { return time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC) }})
	if err != nil {
		t.Fatal(err)
	}
	st := srv.st
	rh := sha256.New()
	for i := range st.repos.items {
		r := &st.repos.items[i]
		fmt.Fprintf(rh, "%s|%s|%s|%v|%v|%v|%s\n", r.UID, r.Name, r.Description, r.ActiveTags, r.CreateTime, r.UpdateTime, r.readme())
	}
	st.makeAllTags()
	// By uid: the order tags are made in (the store's) is the order they
	// are first asked for, not data.
	lines := make([]string, len(st.tags.items))
	for i := range st.tags.items {
		tg := &st.tags.items[i]
		lines[i] = fmt.Sprintf("%s|%s|%x|%d|%d|%d|%v\n", st.tagUID(tg), st.tagName(tg), tg.Digest, tg.Create, tg.Update, tg.class(), tg.deprecated())
	}
	slices.Sort(lines)
	th := sha256.New()
	for _, l := range lines {
		th.Write([]byte(l))
	}
	return fmt.Sprintf("%x", rh.Sum(nil)), fmt.Sprintf("%x", th.Sum(nil))
}
