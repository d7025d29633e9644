package emulator

import (
	"time"

	"canopy/api"
)

// seedAssociations adds the primary organization's account associations
// (its own and four folders': AWS, Google Cloud, Azure, GitHub and
// Chainguard's services, two of them set up wrong so that a check says
// why) and the terms it accepted. It draws nothing: the data seeded
// around it is what it was without it.
func (s *seeder) seedAssociations() {
	org := s.folders[""]
	at := func(ago time.Duration) api.Time { return api.TimeOf(s.now.Add(-ago).Truncate(time.Second)) }
	identity := func(name string) string {
		for i := range s.idents.items {
			if id := &s.idents.items[i]; id.Name == name && api.RootUID(id.UID) == org {
				return id.UID
			}
		}
		return ""
	}
	github := func(app string, ins ...api.GitHubInstallation) *api.GitHubApps {
		return &api.GitHubApps{AppInstallations: map[string]api.GitHubAppInstallations{app: {Installations: ins}}}
	}
	for _, a := range []struct {
		folder string
		made   time.Duration
		api.AccountAssociation
	}{
		{"", 700 * day, api.AccountAssociation{Name: "acme-chainguard", Description: "Chainguard's services in the organization, and the GitHub org",
			Chainguard: &api.ChainguardServices{ServiceBindings: map[string]string{
				"CATALOG_SYNCER": identity("ci-runner"), "INGESTER": identity("security-scanner")}},
			GitHub: github("1029384", api.GitHubInstallation{InstallationID: 51873204, Name: "acme"})}},
		{"platform", 420 * day, api.AccountAssociation{Name: "platform-aws", Description: "Base image builds push to ECR in the platform account",
			Amazon: &api.AmazonAccount{Account: "123456789012"},
			GitHub: github("1029384", api.GitHubInstallation{InstallationID: 51873205, Name: "acme-platform"},
				api.GitHubInstallation{InstallationID: 51873206, Name: "acme-tools"})}},
		{"apps/payments", 240 * day, api.AccountAssociation{Name: "payments-clouds", Description: "Payments runs in AWS and Azure",
			Amazon: &api.AmazonAccount{Account: "731946285017"},
			Azure: &api.AzureTenant{TenantID: "5b8e2c41-7d3a-4f09-9e6b-1c2d3e4f5a6b",
				ClientIDs: map[string]string{"ingester": "9d1c6b2e-3f4a-4b5c-8d7e-0a1b2c3d4e5f", "registry": "2e7f9a1b-6c5d-4e3f-a2b1-c0d9e8f7a6b5"}}}},
		{"data/ml", 60 * day, api.AccountAssociation{Name: "ml-sandbox", Description: "Training jobs pull from the sandbox project",
			Google: &api.GoogleProject{ProjectID: untrustedProject, ProjectNumber: "580317946225"}}},
		{"security", 30 * day, api.AccountAssociation{Name: "security-audit", Description: "The audit account's scanners",
			Amazon: &api.AmazonAccount{Account: untrustedAccount}}},
	} {
		uid := s.folders[a.folder]
		assoc := a.AccountAssociation
		assoc.UID, assoc.CreateTime, assoc.UpdateTime = uid, at(a.made), at(a.made/3)
		s.assocs.add(assoc)
	}
	s.terms.add(termsRec{UID: s.termsUID(org), TermsAcceptance: api.TermsAcceptance{DocID: "chainguard-tos.v3",
		AcceptedBy: identity("alice"), OrgUID: org, CreateTime: at(690 * day)}})
}
