package emulator

import (
	"crypto/sha256"
	"fmt"
	"testing"
	"time"
)

// TestSeededDataIsAsBefore pins what a seed makes: every repo (with its
// readme) and every tag (uid, name, digest, times, class and deprecation),
// hashed, at a fixed clock. The hashes are those of the code before the
// seeding was made cheaper (9c49ccc): a change to how the data is drawn
// that changes the data fails here, whatever the tests of answers see.
func TestSeededDataIsAsBefore(t *testing.T) {
	want := map[string][2]string{
		"small": {"bd509f1ea714548c156b1891e375a796878b8f331c9facc29892fe95ffb94a57",
			"7b3fa13f84ef745f1d20f177371f954253e54863ac687723e3ac58a79f256df4"},
		"medium": {"7fc51835180bdb463ffc7578341f7b1a49dbaba13946f99756f6f245506c10a5",
			"f1cb184b3b4102e522619f649d487a4c5c03a12b6a947c59c022690e6b737817"},
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
	th := sha256.New()
	for i := range st.tags.items {
		tg := &st.tags.items[i]
		fmt.Fprintf(th, "%s|%s|%x|%d|%d|%d\n", st.tagUID(tg), st.tagName(tg), tg.Digest, tg.Create, tg.Update, tg.Name)
	}
	return fmt.Sprintf("%x", rh.Sum(nil)), fmt.Sprintf("%x", th.Sum(nil))
}
