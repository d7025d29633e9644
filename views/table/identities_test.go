package table_test

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"canopy/api"
	"canopy/views/columns"
	"canopy/views/paging"
	"canopy/views/table"
	"canopy/views/viewstest"
)

// identities are n identities of 8-character names, with the long issuers,
// subjects and descriptions of CI workloads, in folders.
func identities(n int) []api.Identity {
	out := make([]api.Identity, n)
	for i := range out {
		out[i] = api.Identity{
			UID:         "org/" + strconv.Itoa(1000+i) + "/id" + strconv.Itoa(i),
			Name:        "ci-bot-" + strconv.Itoa(i%10),
			Description: "Deploys the payments service to production",
			ClaimMatch: &api.ClaimMatch{Issuer: "https://token.actions.githubusercontent.com",
				Subject: "repo:acme/payments:environment:production"},
			LastSeenTime: api.TimeOf(benchNow.Add(-16 * 24 * time.Hour)),
			CreateTime:   api.TimeOf(benchNow.Add(-800 * 24 * time.Hour)),
		}
	}
	return out
}

// identityTable is `:identities` (every folder's) at width w, its one
// page loaded through Update.
func identityTable(t *testing.T, w int) *table.Model[api.Identity] {
	t.Helper()
	ids := identities(8)
	src := func(context.Context, paging.Request) (paging.Result[api.Identity], error) {
		return paging.Result[api.Identity]{Items: ids, Total: int64(len(ids))}, nil
	}
	folders := func() func(string) string { return func(string) string { return "apps/payments" } }
	c := common()
	m := table.New(c, table.Config[api.Identity]{Title: "identities", Columns: columns.IdentitiesIn(c, folders),
		List: paging.New(context.Background(), src, api.IdentityKey), Key: api.IdentityKey, Orders: columns.Orders()})
	m.SetSize(w, 12)
	viewstest.Drive(m.Init(), func(msg tea.Msg) bool { _, ok := msg.(paging.PageMsg); return ok }, m.Update)
	return m
}

// At 80 columns the identities keep their whole names and what tells how
// each is assumed (ISSUER, SUBJECT): the name column is as wide as the
// names, not its Max. Narrower, the description goes first.
func TestNarrowIdentitiesKeepTheTellingColumns(t *testing.T) {
	for _, tc := range []struct {
		width      int
		shown, not []string
	}{
		{80, []string{"NAME", "FOLDER", "ISSUER", "SUBJECT", "CREATED"}, nil},
		{70, []string{"NAME", "FOLDER", "ISSUER", "SUBJECT", "CREATED"}, []string{"DESCRIPTION"}},
	} {
		s := strings.Split(ansi.Strip(identityTable(t, tc.width).View()), "\n")
		for _, title := range tc.shown {
			if !strings.Contains(s[0], title) {
				t.Errorf("at %d columns, no %s:\n%s", tc.width, title, strings.Join(s, "\n"))
			}
		}
		for _, title := range tc.not {
			if strings.Contains(s[0], title) {
				t.Errorf("at %d columns, %s is shown:\n%s", tc.width, title, strings.Join(s, "\n"))
			}
		}
		if !strings.HasPrefix(s[1], " ci-bot-0 apps/payments ") {
			t.Errorf("at %d columns, the first row is %q", tc.width, s[1])
		}
	}
}
