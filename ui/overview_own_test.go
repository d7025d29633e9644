package ui

import (
	"fmt"
	"strings"
	"testing"

	"canopy/api"
)

// TestOverviewCountsItsOwnDeletes: a deprecated tag deleted from the
// overview's table of a repo's deprecated tags leaves the overview's
// counts at once, without r: the heading's and the repo's line.
func TestOverviewCountsItsOwnDeletes(t *testing.T) {
	t.Parallel()
	wt := watchedShell(t, 150, 70)
	wt.waitText("platform")
	tr := readTruth(t, wt.client, wt.srv.OrgUID())
	typeCommand(wt.harness, "overview")
	n := len(tr.repos)
	wt.waitText(fmt.Sprintf("%d of %d repos counted, the oldest", n, n))
	wt.waitFor("every count", func(s string) bool { return !strings.Contains(s, "counting") && !wt.m.busy() })
	total, dep, worst := 0, 0, api.Repo{}
	for _, r := range tr.repos {
		total += tr.tags[r.UID]
		dep += tr.dep[r.UID]
		if tr.dep[r.UID] > tr.dep[worst.UID] || (tr.dep[r.UID] == tr.dep[worst.UID] && r.Name < worst.Name) {
			worst = r
		}
	}
	wt.down(" " + worst.Name + " ")
	wt.keys("enter")
	wt.waitFor("the repo's deprecated tags", func(s string) bool { return strings.Contains(line(s, "canopy  "), "tags of "+worst.Name) })
	wt.waitFor("the repo's tags listed", func(string) bool { return !wt.m.busy() })
	wt.keys("d")
	wt.waitText("Delete tag ")
	wt.keys("y")
	wt.waitText("deleted tag ")
	wt.keys("esc")
	heading := fmt.Sprintf("%s of %s tags", commas(dep-1), commas(total-1))
	s := wt.waitFor("the heading to count the delete", func(s string) bool {
		return strings.Contains(s, "by repo") && strings.Contains(line(s, "Deprecated tags"), heading)
	})
	byRepo := s[strings.Index(s, "by repo"):]
	if l := line(byRepo, " "+worst.Name+" "); !strings.Contains(l, fmt.Sprintf("%s of %s", commas(tr.dep[worst.UID]-1), commas(tr.tags[worst.UID]-1))) {
		t.Errorf("%s's line %q, want %d of %d", worst.Name, l, tr.dep[worst.UID]-1, tr.tags[worst.UID]-1)
	}
}

// overviewCounted opens the overview and waits for every count.
func overviewCounted(t *testing.T) *watched {
	t.Helper()
	wt := watchedShell(t, 150, 90)
	wt.waitText("platform")
	typeCommand(wt.harness, "overview")
	wt.waitFor("every count", func(s string) bool {
		return strings.Contains(s, "Identities  ") && !strings.Contains(s, "counting") && !wt.m.busy()
	})
	return wt
}

// countOn is the number at the end of the overview line holding words.
func countOn(t *testing.T, s, words string) int {
	t.Helper()
	f := strings.Fields(line(s, words))
	if len(f) == 0 {
		t.Fatalf("no line %q in\n%s", words, s)
	}
	var n int
	if _, err := fmt.Sscan(f[len(f)-1], &n); err != nil {
		t.Fatalf("line %q ends in no count", line(s, words))
	}
	return n
}

// headCount is the count after a part's heading ("Identities  20 identities").
func headCount(t *testing.T, s, heading string) int {
	t.Helper()
	var n int
	if _, err := fmt.Sscan(strings.TrimPrefix(strings.TrimSpace(line(s, heading)), strings.TrimSpace(heading)), &n); err != nil {
		t.Fatalf("heading %q has no count", line(s, heading))
	}
	return n
}

// TestOverviewCountsItsOwnBinds: an identity bound from the table behind
// "with no role binding" leaves that line, and its role's line gains it,
// without r.
func TestOverviewCountsItsOwnBinds(t *testing.T) {
	t.Parallel()
	wt := overviewCounted(t)
	s := wt.screen()
	unbound, viewers, all := countOn(t, s, "with no role binding"), countOn(t, s, "  viewer  "), headCount(t, s, "Role bindings  ")
	wt.down("with no role binding")
	wt.keys("enter")
	wt.waitFor("the unbound identities", func(s string) bool { return strings.Contains(line(s, "canopy  "), "identities with no role binding") })
	wt.waitFor("them listed", func(string) bool { return !wt.m.busy() })
	wt.keys("b")
	wt.waitText("Which role for ")
	wt.keys("1")
	wt.waitText("Bind viewer to ", " on which folder?")
	wt.keys("enter")
	wt.waitText("Bind viewer to ")
	wt.keys("enter")
	wt.waitText("bound viewer → ")
	// The table asks the server again: the identity bound leaves it.
	wt.waitFor("the table without the identity bound", func(s string) bool {
		return strings.Contains(s, fmt.Sprintf(" of %d", unbound-1)) && !wt.m.busy()
	})
	wt.keys("esc")
	s = wt.waitFor("the overview to count the bind", func(s string) bool {
		return strings.Contains(s, "Identities  ") && !strings.Contains(line(s, "canopy  "), "identities with") &&
			strings.Contains(line(s, "Role bindings  "), fmt.Sprintf("%d role bindings", all+1))
	})
	if got := countOn(t, s, "with no role binding"); got != unbound-1 {
		t.Errorf("with no role binding: %d, want %d\n%s", got, unbound-1, s)
	}
	if got := countOn(t, s, "  viewer  "); got != viewers+1 {
		t.Errorf("viewer: %d, want %d", got, viewers+1)
	}
	if got := line(s, "Role bindings  "); !strings.Contains(got, fmt.Sprintf("%d role bindings", all+1)) {
		t.Errorf("heading %q, want %d role bindings", got, all+1)
	}
}

// TestOverviewCountsADeletedIdentity: an identity deleted from the table
// behind "never seen" leaves the identities' counts; what went with it
// on the server (its bindings) is listed again, not guessed.
func TestOverviewCountsADeletedIdentity(t *testing.T) {
	t.Parallel()
	wt := overviewCounted(t)
	s := wt.screen()
	never, ids := countOn(t, s, "never seen"), headCount(t, s, "Identities  ")
	people := wt.count("/iam/v2/identities")
	wt.down("never seen")
	wt.keys("enter")
	wt.waitFor("the identities never seen", func(s string) bool { return strings.Contains(line(s, "canopy  "), "identities never seen") })
	wt.waitFor("them listed", func(string) bool { return !wt.m.busy() })
	wt.keys("d")
	wt.waitText("Delete identity ")
	wt.keys("y")
	wt.waitText("deleted identity ")
	wt.keys("esc")
	s = wt.waitFor("the overview to count the delete", func(s string) bool {
		return strings.Contains(s, "Identities  ") && !strings.Contains(line(s, "canopy  "), "identities never") && !wt.m.busy() &&
			strings.Contains(line(s, "Identities  "), fmt.Sprintf("%d identities", ids-1))
	})
	if got := countOn(t, s, "never seen"); got != never-1 {
		t.Errorf("never seen: %d, want %d\n%s", got, never-1, s)
	}
	if got := line(s, "Identities  "); !strings.Contains(got, fmt.Sprintf("%d identities", ids-1)) {
		t.Errorf("heading %q, want %d identities", got, ids-1)
	}
	if wt.count("/iam/v2/identities") == people {
		t.Error("the people were not listed again after an identity went")
	}
}

// TestARowThatLeavesItsFilterLeavesTheTable: a binding whose role is
// changed in the table of its old role's bindings (opened from the
// overview) leaves that table, which no longer claims it holds the role.
func TestARowThatLeavesItsFilterLeavesTheTable(t *testing.T) {
	t.Parallel()
	wt := overviewCounted(t)
	wt.down("  auditor  ")
	wt.keys("enter")
	wt.waitFor("auditor's bindings", func(s string) bool { return strings.Contains(line(s, "canopy  "), "role bindings of auditor") })
	wt.waitText("auditor-bot", "1 of 1")
	wt.keys("e")
	wt.waitText("Which role for auditor-bot", "1 viewer")
	wt.keys("1")
	wt.waitText("PATCH /iam/v2/roleBindings/")
	wt.keys("enter")
	wt.waitText("role of auditor-bot on acme.example changed")
	s := wt.waitFor("the row gone", func(s string) bool { return !strings.Contains(s, "auditor-bot ") || !strings.Contains(s, "1 of 1") })
	if strings.Contains(s, "auditor-bot   viewer") || strings.Contains(s, "auditor-bot  viewer") {
		t.Errorf("the table of auditor's bindings still shows auditor-bot as a viewer:\n%s", s)
	}
}
