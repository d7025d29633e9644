package ui

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"canopy/api"
	"canopy/text"
)

// TestNewTagOnAnExistingNameSaysItMoves: typing the name of a tag that
// exists says where it points and where it would go; enter asks again;
// the move is in :changes and u moves it back.
func TestNewTagOnAnExistingNameSaysItMoves(t *testing.T) {
	t.Parallel()
	h, reqs, mu := recordingShell(t, 160, 40)
	c := h.m.opts.Client
	repos, err := c.ListRepos(context.Background(), api.ListOptions{DescendantsOf: h.srv.OrgUID(), Name: "alertmanager"})
	if err != nil || len(repos.Items) != 1 {
		t.Fatal(repos, err)
	}
	repo := repos.Items[0].UID
	digestOf := func(name string) string {
		p, err := c.ListTags(context.Background(), api.ListOptions{ChildrenOf: repo, Name: name})
		if err != nil || len(p.Items) != 1 {
			t.Fatalf("tag %s: %+v %v", name, p, err)
		}
		return p.Items[0].Digest
	}
	was := digestOf("latest")
	// Any other tag of the repo on another digest is where latest moves.
	var next string
	page, err := c.ListTags(context.Background(), api.ListOptions{ChildrenOf: repo, PageSize: api.MaxPageSize})
	if err != nil {
		t.Fatal(err)
	}
	for _, tag := range page.Items {
		if tag.Digest != was {
			next = tag.Digest
			break
		}
	}
	if next == "" {
		t.Fatalf("every tag of alertmanager is on %s", was)
	}
	h.toAlertmanager()
	h.keys("n")
	h.waitText("New tag in alertmanager")
	for _, r := range "latest" {
		h.keys(string(r))
	}
	h.keys("tab")
	for _, r := range next {
		h.keys(string(r))
	}
	warn := "latest exists at " + text.Short(was, 12) + ": this moves it to " + text.Short(next, 12)
	h.waitText(warn)
	h.keys("enter")
	h.waitText("enter again to go on")
	if got := last(reqs, mu); len(got) != 0 {
		t.Fatalf("the first enter sent %+v", got)
	}
	h.keys("enter")
	h.waitText(`moved tag "latest" of alertmanager from ` + text.Short(was, 12) + " to " + text.Short(next, 12))
	if got := digestOf("latest"); got != next {
		t.Fatalf("latest points at %s", got)
	}
	typeCommand(h, "changes")
	s := h.waitText("changes made in this session", "ok (")
	if !strings.Contains(line(s, "POST /registry/v2/tags/"), `tag "latest" of alertmanager · digest · moved`) {
		t.Errorf(":changes does not say the tag moved:\n%s", s)
	}
	h.keys("esc")
	h.keys("u")
	h.waitText("undid digest of latest: back to")
	if got := digestOf("latest"); got != was {
		t.Errorf("u did not move latest back: %s", got)
	}
	got := last(reqs, mu)
	if len(got) != 2 || got[1].Method != "POST" || got[1].Body["digest"] != was || got[1].Body["name"] != "latest" {
		t.Errorf("requests %+v", got)
	}
}

// TestNewTagOnAFreshNameCreatesAtOnce: a name not taken is created with
// one enter, and the flash names it.
func TestNewTagOnAFreshNameCreatesAtOnce(t *testing.T) {
	t.Parallel()
	h, reqs, mu := recordingShell(t, 160, 40)
	h.toAlertmanager()
	h.keys("n")
	h.waitText("New tag in alertmanager")
	for _, r := range "canary" {
		h.keys(string(r))
	}
	h.keys("tab")
	for _, r := range "sha256:" + strings.Repeat("ab", 32) {
		h.keys(string(r))
	}
	h.keys("enter")
	h.waitText(`created tag "canary" in alertmanager`)
	if got := last(reqs, mu); len(got) != 1 || got[0].Body["name"] != "canary" {
		t.Errorf("requests %+v", got)
	}
}

// TestANewTagInATableGetsTheCursor: created from a repo's tag table, the
// new tag is where the cursor goes, as a new repo or folder is.
func TestANewTagInATableGetsTheCursor(t *testing.T) {
	t.Parallel()
	h, _, _ := recordingShell(t, 160, 40)
	h.toAlertmanager()
	h.keys("t")
	h.waitText("tags of alertmanager", "loaded")
	h.keys("j", "j")
	s := h.waitFor("the cursor on row 3", func(s string) bool {
		return rowOf.FindStringSubmatch(s) != nil && rowOf.FindStringSubmatch(s)[1] == "3"
	})
	n, _ := strconv.Atoi(rowOf.FindStringSubmatch(s)[2])
	h.keys("n")
	h.waitText("New tag in alertmanager")
	h.typeText("zz-canary")
	h.keys("tab")
	h.typeText("sha256:" + strings.Repeat("cd", 32))
	h.keys("enter")
	h.waitText(`created tag "zz-canary" in alertmanager`)
	// Sorted by name, zz-canary is last: the cursor is on it.
	want := fmt.Sprintf("%d of %d", n+1, n+1)
	h.waitFor("the cursor on the new tag ("+want+")", func(s string) bool {
		m := rowOf.FindStringSubmatch(s)
		return m != nil && m[0] == want
	})
}

// rowOf is a table's "k of n" count.
var rowOf = regexp.MustCompile(`\b(\d+) of (\d+)\b`)
