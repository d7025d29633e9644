package ui

import (
	"net/http"
	"strings"
	"testing"
)

// toAssociations opens a folder's account associations in the tree.
func (h *harness) toAssociations(folder string) {
	h.t.Helper()
	h.waitText(folder)
	h.moveTo(folder)
	h.keys("l")
	h.moveTo("account associations of " + folder)
	h.keys("l")
}

// The tree has an account associations collection under each folder, the
// organization too: a folder's own association, its providers beside its
// name; a folder without one counts none.
func TestAssociationsInTheTree(t *testing.T) {
	t.Parallel()
	h, _, _ := recordingShell(t, 150, 45)
	h.toAssociations("platform")
	h.waitFor("platform's association", func(s string) bool {
		return strings.Contains(s, "platform-aws  aws · github") && strings.Contains(line(s, "v account associations"), " 1")
	})
	h.moveTo("account association: platform-aws")
	s := h.waitText("aws account   123456789012", "github apps   app 1029384: acme-platform (51873205), acme-tools (51873206)",
		"gcp project   —")
	if !strings.Contains(line(s, "> acme.example"), "") || !strings.Contains(s, "> account associations") {
		t.Errorf("the organization has no collection of its own:\n%s", s)
	}
	h.moveTo("apps")
	h.keys("l")
	h.moveTo("account associations of apps")
	h.keys("l")
	h.waitFor("apps has none", func(s string) bool {
		return strings.Contains(line(s, "v account associations"), " 0")
	})
}

// :associations lists the organization's and every folder's, the
// organization's first, each with its folder by path, its providers and
// accounts; enter opens one's page, where c has the service try its
// clouds: one set up wrong says why, one with no cloud has nothing to
// check.
func TestAssociationsTablePageAndCheck(t *testing.T) {
	t.Parallel()
	h, reqs, mu := recordingShell(t, 160, 45)
	h.waitText("platform")
	typeCommand(h, "associations")
	h.waitText("account associations of acme.example", "NAME", "FOLDER", "PROVIDERS", "ACCOUNTS", "UPDATED", "1 of 5")
	s := h.waitFor("the folders' paths", func(s string) bool {
		return strings.Contains(line(s, "ml-sandbox"), "data/ml") && strings.Contains(line(s, "payments-clouds"), "apps/payments")
	})
	if body := tableBody(s); !strings.HasPrefix(strings.TrimSpace(body), "acme-chainguard acme.example") {
		t.Errorf("the organization's own is not first:\n%s", s)
	}
	for row, want := range map[string]string{"platform-aws": "aws, github", "payments-clouds": "aws 731946285017 · azure 5b8e2c41",
		"acme-chainguard": "github acme · chainguard 2 services"} {
		if !strings.Contains(line(s, row), want) {
			t.Errorf("the row of %s does not show %q:\n%s", row, want, s)
		}
	}

	// The organization's ties no cloud: c says so, and sends nothing.
	h.keys("g", "enter")
	h.waitFor("its names", func(s string) bool {
		return strings.Contains(s, "CATALOG_SYNCER as ci-runner; INGESTER as security-scanner") && strings.Contains(line(s, "folder"), "acme.example")
	})
	h.keys("c")
	h.waitText("nothing to check: a check tries AWS, Google Cloud and Azure")
	h.keys("esc")

	h.waitText("1 of 5")
	h.keys("/")
	h.typeText("ml-sandbox")
	h.keys("enter", "enter")
	h.waitText("account association: ml-sandbox", "gcp project   acme-ml-sandbox", "gcp number    580317946225")
	h.keys("c")
	s = h.waitText("CHECK", "gcp           acme-ml-sandbox  not ready", "error exchanging credentials: sts.googleapis.com",
		"c checks again")
	got := last(reqs, mu)
	if len(got) != 1 || got[0].Method != "POST" || !strings.HasSuffix(got[0].Path, ":checkAccountAssociation") ||
		got[0].Body["providerType"] != "ACCOUNT_PROVIDER_TYPE_GOOGLE" {
		t.Fatalf("requests %+v", got)
	}
	// r reads it again: the check's answer goes with what was read.
	h.keys("r")
	h.waitFor("the check gone", func(s string) bool { return !strings.Contains(s, "CHECK") })
	if strings.Contains(s, "\x1b") {
		t.Errorf("raw escapes on the page")
	}
}

// n in a folder's associations, after the provider is chosen, is a form of
// that provider's fields; e on the page edits one part alone (its mask),
// and u undoes it; d deletes after a dialog saying what stops working,
// and the folder stays in the tree.
func TestAssociationCreateEditUndoDelete(t *testing.T) {
	t.Parallel()
	h, reqs, mu := recordingShell(t, 160, 50)
	apps := h.groupUID(t, "apps")
	h.toAssociations("apps")
	h.waitFor("apps has none", func(s string) bool { return strings.Contains(line(s, "v account associations"), " 0") })
	h.keys("k") // on the collection
	h.moveTo("account associations of apps")
	h.keys("n")
	h.waitText("New account association in apps: what does it tie first?", "AWS", "Google Cloud", "Chainguard's services")
	h.keys("1")
	h.waitText("New account association in apps", "POST /iam/v2/accountAssociations/", "aws account")
	h.typeText("apps-aws")
	h.keys("tab", "tab")
	h.typeText("2109")
	h.keys("enter")
	h.waitText("12 digits")
	if got := last(reqs, mu); len(got) != 0 {
		t.Fatalf("sent %+v", got)
	}
	h.typeText("87654321")
	h.keys("enter")
	h.waitText(`created account association "apps-aws" in apps`)
	got := last(reqs, mu)
	if len(got) != 1 || got[0].Path != "/iam/v2/accountAssociations/"+apps || got[0].Body["name"] != "apps-aws" ||
		got[0].Body["amazon"].(map[string]any)["account"] != "210987654321" {
		t.Fatalf("requests %+v", got)
	}
	h.waitText("apps-aws  aws")

	// Its page: the Google Cloud part added alone, then undone.
	h.moveTo("account association: apps-aws")
	h.keys("enter")
	h.waitText("aws account   210987654321", "e edit")
	h.keys("down", "down", "down") // name, description, aws account, gcp project
	h.keys("e")
	h.waitText("PATCH /iam/v2/accountAssociations/", "update_mask=google")
	h.typeText("acme-apps")
	h.keys("tab")
	h.typeText("4815162342")
	h.keys("enter")
	h.waitText("gcp project and gcp number of apps-aws changed (u undoes)", "gcp project   acme-apps")
	got = last(reqs, mu)[1:]
	if len(got) != 1 || got[0].Method != "PATCH" || !strings.HasSuffix(got[0].Path, "?update_mask=google") ||
		len(got[0].Body) != 1 || got[0].Body["google"].(map[string]any)["projectId"] != "acme-apps" {
		t.Fatalf("requests %+v", got)
	}
	h.keys("u")
	h.waitFor("the part gone again", func(s string) bool { return strings.Contains(s, "gcp project   —") })
	got = last(reqs, mu)[2:]
	if len(got) != 1 || got[0].Method != "PATCH" || !strings.HasSuffix(got[0].Path, "?update_mask=google") || len(got[0].Body) != 0 {
		t.Fatalf("the undo sent %+v", got)
	}

	// d: what stops working; the folder stays.
	h.keys("esc")
	h.moveTo("account association: apps-aws")
	h.keys("d")
	h.waitText("Delete account association apps-aws?", "AWS account 210987654321: the platform can no longer exchange credentials",
		"The folder and what it holds stay")
	h.keys("y")
	h.waitText("deleted account association apps-aws")
	h.waitFor("gone from the tree, apps still there", func(s string) bool {
		return !strings.Contains(s, "apps-aws  aws") && strings.Contains(s, "v apps") && strings.Contains(line(s, "v account associations"), " 0")
	})
	got = last(reqs, mu)[3:]
	if len(got) != 1 || got[0].Method != "DELETE" || got[0].Path != "/iam/v2/accountAssociations/"+apps {
		t.Fatalf("requests %+v", got)
	}
}

// A folder has one association: n on a folder that has one says so and
// opens nothing.
func TestAssociationOnePerFolder(t *testing.T) {
	t.Parallel()
	h, reqs, mu := recordingShell(t, 150, 40)
	h.toAssociations("platform")
	h.waitText("platform-aws  aws")
	h.moveTo("account associations of platform")
	h.keys("n")
	h.waitText(`platform has its account association already, "platform-aws" (a folder has one): e on it adds a provider`)
	if got := last(reqs, mu); len(got) != 0 {
		t.Fatalf("sent %+v", got)
	}
}

// A create whose answer was lost is looked up (the folder's association,
// by the name typed), found made, and not sent again.
func TestLostAssociationIsFoundNotSentAgain(t *testing.T) {
	t.Parallel()
	h, _, d := droppingShellWith(t, 150, 40, func(r *http.Request) bool {
		return r.Method == http.MethodPost && strings.HasPrefix(r.URL.Path, "/iam/v2/accountAssociations/")
	})
	h.toAssociations("apps")
	h.waitFor("apps has none", func(s string) bool { return strings.Contains(line(s, "v account associations"), " 0") })
	h.moveTo("account associations of apps")
	h.keys("n")
	h.waitText("what does it tie first?")
	h.keys("4") // GitHub
	h.waitText("New account association in apps", "github apps")
	h.typeText("apps-github")
	h.keys("tab", "tab")
	h.typeText("1029384:7 acme-apps")
	h.keys("enter")
	h.waitText(`no answer, but the server has it: created account association "apps-github" in apps`)
	h.settle()
	if n := posts(d, "/iam/v2/accountAssociations/"); n != 1 {
		t.Errorf("%d POSTs, want 1: %v", n, d.received())
	}
}

// n in :associations (every folder's) asks which folder first, offering
// only those without one (a folder has one at most); the provider and the
// form follow, for the folder chosen.
func TestAssociationsTableAsksWhichFolder(t *testing.T) {
	t.Parallel()
	h, reqs, mu := recordingShell(t, 160, 45)
	apps := h.groupUID(t, "apps")
	h.waitText("platform")
	typeCommand(h, "associations")
	h.waitText("account associations of acme.example", "FOLDER", "1 of 5")
	h.keys("n")
	s := h.waitText("New account association: for which folder? (those without one)", "apps", "apps/web", "platform/ci",
		"Product applications.")
	// The organization, platform, security, data/ml and apps/payments
	// have one: not offered.
	for _, has := range []string{"Acme Corp", "Platform engineering", "Security team", "Machine learning", "Payments service"} {
		if line(s, has) != "" {
			t.Errorf("a folder with one is offered (%s):\n%s", has, s)
		}
	}
	h.typeText("apps")
	h.keys("enter")
	h.waitText("New account association in apps: what does it tie first?", "AWS")
	h.keys("1")
	h.waitText("New account association in apps", "POST /iam/v2/accountAssociations/", "aws account")
	h.typeText("apps-aws")
	h.keys("tab", "tab")
	h.typeText("210987654321")
	h.keys("enter")
	h.waitText(`created account association "apps-aws" in apps`)
	if got := last(reqs, mu); len(got) != 1 || got[0].Method != "POST" || got[0].Path != "/iam/v2/accountAssociations/"+apps {
		t.Fatalf("requests %+v", got)
	}
	h.waitFor("its row", func(s string) bool {
		return strings.Contains(line(s, "apps-aws"), "apps") && strings.Contains(s, "of 6")
	})

	// apps is no longer offered.
	h.keys("n")
	s = h.waitText("New account association: for which folder?", "apps/web")
	if line(s, "Product applications.") != "" {
		t.Errorf("apps, which has one now, is offered:\n%s", s)
	}
	h.keys("esc")
	h.waitText("account associations of acme.example", "of 6")
}

// :associations shows them by folder as FOLDER reads: the organization's
// own first, then by path (not by folder uid, which reads as no order);
// s sorts them by name, and again by folder.
func TestAssociationsByFolderPath(t *testing.T) {
	t.Parallel()
	h, _, _ := recordingShell(t, 160, 45)
	h.waitText("platform")
	typeCommand(h, "associations")
	folders := []string{"acme.example", "apps/payments", "data/ml", "platform", "security"}
	inOrder := func(rows []string) func(string) bool {
		return func(s string) bool {
			at := 0
			for _, l := range strings.Split(tableBody(s), "\n") {
				if at < len(rows) && strings.Contains(l, " "+rows[at]+" ") {
					at++
				}
			}
			return at == len(rows) && strings.Contains(s, "1 of 5")
		}
	}
	h.waitFor("the rows by folder path "+strings.Join(folders, ", "), inOrder(folders))
	h.keys("s")
	h.waitText("sorted by name")
	h.keys("s")
	h.waitFor("by folder path again", inOrder(folders))
}

// An edit of a part of two fields says each change beside its name, in
// the order it names them: Azure's tenant, then its clients.
func TestAssociationEditSaysEachFieldsChange(t *testing.T) {
	t.Parallel()
	h, reqs, mu := recordingShell(t, 200, 50)
	h.toAssociations("platform")
	h.waitText("platform-aws  aws")
	h.moveTo("account association: platform-aws")
	h.keys("enter")
	h.waitText("aws account   123456789012", "e edit")
	h.keys("down", "down", "down", "down") // name, description, aws account, gcp project, azure tenant
	h.keys("e")
	h.waitText("PATCH /iam/v2/accountAssociations/", "update_mask=azure")
	h.typeText("11111111-2222-4333-8444-555555555555")
	h.keys("tab")
	h.typeText("ingester=66666666-7777-4888-9999-000000000000")
	h.keys("enter")
	s := h.waitText("azure tenant and azure clients of platform-aws changed (u undoes)")
	say := line(s, "azure tenant and azure clients of platform-aws changed")
	tenant, clients := strings.Index(say, `"" → "11111111-2222-4333-8444-`), strings.Index(say, `"" → "ingester=`)
	if tenant < 0 || clients < 0 || tenant > clients {
		t.Errorf("the change does not read tenant, then clients: %q", say)
	}
	if got := last(reqs, mu); len(got) != 1 || !strings.HasSuffix(got[0].Path, "?update_mask=azure") {
		t.Fatalf("requests %+v", got)
	}
}
