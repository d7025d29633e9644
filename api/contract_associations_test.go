package api_test

import (
	"canopy/api"
)

// driveAssociations makes every call of account associations: a create
// with every part, an update of each part alone, a check of each cloud.
func driveAssociations(ck *contractCheck, c *api.Client, org string) {
	t, ctx := ck.t, ck.t.Context()
	lists(ck, "ListAccountAssociations", c.ListAccountAssociations,
		append(hierarchy(org), api.ListOptions{DescendantsOf: org, Name: "platform-aws"})...)
	groups := must(c.ListGroups(ctx, api.ListOptions{ChildrenOf: org, Name: "apps"}))(t)
	ck.done("ListGroups", len(groups.Items))
	apps := pick(t, groups.Items, func(g api.Group) bool { return g.Name == "apps" })
	ids := must(c.ListIdentities(ctx, api.ListOptions{DescendantsOf: org, Name: "ci-runner"}))(t)
	ck.done("ListIdentities", len(ids.Items))
	runner := pick(t, ids.Items, func(i api.Identity) bool { return i.Name == "ci-runner" })

	whole := api.AccountAssociation{Name: "contract", Description: "checked",
		Amazon: &api.AmazonAccount{Account: "210987654321"},
		Google: &api.GoogleProject{ProjectID: "contract-project", ProjectNumber: "1234567890"},
		Azure: &api.AzureTenant{TenantID: "5b8e2c41-7d3a-4f09-9e6b-1c2d3e4f5a6b",
			ClientIDs: map[string]string{"ingester": "9d1c6b2e-3f4a-4b5c-8d7e-0a1b2c3d4e5f"}},
		GitHub: &api.GitHubApps{AppInstallations: map[string]api.GitHubAppInstallations{
			"1029384": {Installations: []api.GitHubInstallation{{InstallationID: 7, Name: "acme"}}}}},
		Chainguard: &api.ChainguardServices{ServiceBindings: map[string]string{"INGESTER": runner.UID}}}
	a := must(c.CreateAccountAssociation(ctx, apps.UID, whole))(t)
	ck.done("CreateAccountAssociation", -1)
	a.Name, a.Description = "contract-renamed", "checked again"
	for _, m := range []string{api.FieldName, api.FieldDescription, api.FieldAmazon, api.FieldGoogle, api.FieldAzure,
		api.FieldGitHub, api.FieldChainguard} {
		a = must(c.PatchAccountAssociation(ctx, *a, m))(t)
		ck.done("PatchAccountAssociation", -1)
	}
	must(c.GetAccountAssociation(ctx, a.UID))(t)
	ck.done("GetAccountAssociation", -1)
	for _, p := range api.CheckProviders() {
		must(c.CheckAccountAssociation(ctx, a.UID, p))(t)
		ck.done("CheckAccountAssociation", -1)
	}
	must(0, c.DeleteAccountAssociation(ctx, a.UID))(t)
	ck.done("DeleteAccountAssociation", -1)
}

// driveTerms accepts two documents, then lists what was accepted over
// pages.
func driveTerms(ck *contractCheck, c *api.Client, org string) {
	t, ctx := ck.t, ck.t.Context()
	must(c.AcceptTerms(ctx, org, []string{"guardener-tos.v1", "chainguard-dpa.v2"}))(t)
	ck.done("AcceptTerms", -1)
	lists(ck, "ListTermsAcceptances", c.TermsAcceptancesOf(org), api.ListOptions{})
}
