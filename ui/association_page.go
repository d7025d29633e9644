package ui

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"canopy/api"
	"canopy/keymap"
	"canopy/safe"
	"canopy/views/columns"
	"canopy/views/detail"
	"canopy/views/dialog"
)

// An account association's page: its folder, then a line for each part
// it may have (— for none: e on the line adds it), the folder and the
// identities its services act as named once read; c has the service try
// its clouds and shows what each answered.

// The labels of an association's parts on its page and in its edits: the
// field cursor finds an edit by its first field's label.
const (
	labelAWS          = "aws account"
	labelGCPProject   = "gcp project"
	labelGCPNumber    = "gcp number"
	labelAzureTenant  = "azure tenant"
	labelAzureClients = "azure clients"
	labelGitHub       = "github apps"
	labelServices     = "services"
)

// associationPage is the page of an association read with e's client.
func associationPage(e *env) detail.Page {
	c := e.client
	p := detail.NamedPage(func(a *api.AccountAssociation) string { return a.UID }, associationFields,
		func(ctx context.Context, a *api.AccountAssociation) (map[string]string, error) {
			return associationNames(ctx, c, a)
		})
	return detail.WithCheck(p, keymap.Check, cannotCheck, func(ctx context.Context, a *api.AccountAssociation) ([]detail.Checked, error) {
		return checkAssociation(ctx, c, a)
	})
}

// associationFields are what its page shows below its uid, names by name
// once known.
func associationFields(a *api.AccountAssociation, name func(uid string) string) []detail.Field {
	named := func(uid string) string {
		if n := name(uid); n != "" {
			return n
		}
		return uid
	}
	fs := []detail.Field{{Label: "folder", Value: named(a.UID)}, {Label: "description", Value: a.Description},
		{Label: "created", When: a.CreateTime}, {Label: "updated", When: a.UpdateTime}}
	var aws, project, number, tenant, clients, github, services string
	if a.Amazon != nil {
		aws = a.Amazon.Account
	}
	if a.Google != nil {
		project, number = a.Google.ProjectID, a.Google.ProjectNumber
	}
	if a.Azure != nil {
		tenant, clients = a.Azure.TenantID, pairsText(a.Azure.ClientIDs)
	}
	if a.GitHub != nil {
		var apps []string
		for _, app := range columns.GitHubApps(a.GitHub) {
			var ins []string
			for _, in := range a.GitHub.AppInstallations[app].Installations {
				ins = append(ins, strings.TrimSpace(fmt.Sprintf("%s (%d)", in.Name, in.InstallationID)))
			}
			apps = append(apps, "app "+app+": "+strings.Join(ins, ", "))
		}
		github = strings.Join(apps, "; ")
	}
	if a.Chainguard != nil {
		var as []string
		for _, svc := range sortedKeys(a.Chainguard.ServiceBindings) {
			as = append(as, svc+" as "+named(a.Chainguard.ServiceBindings[svc]))
		}
		services = strings.Join(as, "; ")
	}
	return append(fs, detail.Field{Section: "AWS"}, detail.Field{Label: labelAWS, Value: aws},
		detail.Field{Section: "GOOGLE CLOUD"}, detail.Field{Label: labelGCPProject, Value: project}, detail.Field{Label: labelGCPNumber, Value: number},
		detail.Field{Section: "AZURE"}, detail.Field{Label: labelAzureTenant, Value: tenant}, detail.Field{Label: labelAzureClients, Value: clients},
		detail.Field{Section: "GITHUB"}, detail.Field{Label: labelGitHub, Value: github},
		detail.Field{Section: "CHAINGUARD'S SERVICES"}, detail.Field{Label: labelServices, Value: services})
}

// associationNames reads the path of an association's folder and the
// names of the identities its services act as. One the token may not
// read stays a uid.
func associationNames(ctx context.Context, c *api.Client, a *api.AccountAssociation) (map[string]string, error) {
	out := map[string]string{}
	path, err := readFolderPath(ctx, c, a.UID)
	if err != nil || path == "" {
		return out, err
	}
	out[a.UID] = path
	if a.Chainguard == nil {
		return out, nil
	}
	for _, uid := range a.Chainguard.ServiceBindings {
		id, err := c.GetIdentity(ctx, uid)
		switch {
		case api.IsNotFound(err):
			out[uid] = uid + " (no such identity)"
		case api.IsPermissionDenied(err):
		case err != nil:
			return out, fmt.Errorf("name the identities its services act as: %w", err)
		default:
			out[uid] = id.Name
		}
	}
	return out, nil
}

// readFolderPath reads a folder's path as a FOLDER column shows it: below
// the organization ("data/ml"), the organization's name for itself. One
// the token may not read (nor a folder above it) is "", and no error.
func readFolderPath(ctx context.Context, c *api.Client, uid string) (string, error) {
	var path []string
	for u := uid; u != ""; u = api.ParentUID(u) {
		g, err := c.GetGroup(ctx, u)
		switch {
		case api.IsPermissionDenied(err):
			return "", nil
		case err != nil:
			return "", fmt.Errorf("name its folder: %w", err)
		}
		path = append([]string{g.Name}, path...)
	}
	if len(path) > 1 {
		path = path[1:] // a folder is named by its path under the organization
	}
	return strings.Join(path, "/"), nil
}

// checkWords are a cloud a check tries as its page names it (its label)
// and as a sentence does.
func checkWords(provider string) (label, says string) {
	switch provider {
	case api.ProviderAmazon:
		return columns.PartAWS, "AWS"
	case api.ProviderGoogle:
		return columns.PartGoogle, "Google Cloud"
	}
	return columns.PartAzure, "Azure"
}

// cannotCheck says why an association has nothing to check.
func cannotCheck(a *api.AccountAssociation) string {
	if len(a.Checkable()) == 0 {
		return "nothing to check: a check tries AWS, Google Cloud and Azure, and this association ties none of them"
	}
	return ""
}

// checkAssociation has the service try each cloud a ties, one request
// each: what the ones before a failure answered come with it.
func checkAssociation(ctx context.Context, c *api.Client, a *api.AccountAssociation) ([]detail.Checked, error) {
	var out []detail.Checked
	for _, p := range a.Checkable() {
		label, says := checkWords(p)
		n := &api.Note{What: "check of " + resourceWords(a), Change: says}
		ck, err := c.CheckAccountAssociation(api.WithNote(ctx, n), a.UID, p)
		if err != nil {
			return out, fmt.Errorf("check %s: %w", says, err)
		}
		got := detail.Checked{Label: label, What: accountOf(a, p), Ready: ck.Status == api.CheckReady,
			Unknown: !slices.Contains(api.CheckStatuses(), ck.Status)}
		switch {
		case got.Unknown:
			got.Why = ck.Status
		case !got.Ready:
			got.Why = strings.TrimPrefix(strings.Join([]string{ck.Reason, ck.Message}, ": "), ": ")
		}
		out = append(out, got)
	}
	return out, nil
}

// resourceWords is an association as :changes names it.
func resourceWords(a *api.AccountAssociation) string {
	return "account association " + fmt.Sprintf("%q", a.Name)
}

// accountOf is the account of a's part of provider.
func accountOf(a *api.AccountAssociation, provider string) string {
	switch {
	case provider == api.ProviderAmazon && a.Amazon != nil:
		return a.Amazon.Account
	case provider == api.ProviderGoogle && a.Google != nil:
		return a.Google.ProjectID
	case provider == api.ProviderAzure && a.Azure != nil:
		return a.Azure.TenantID
	}
	return ""
}

// associationLost says what stops working with an association: each part
// of one, in words; of several, at once.
func associationLost(cfg *dialog.Config, as []*api.AccountAssociation) {
	if len(as) > 1 {
		cfg.Lines = append(cfg.Lines, "What each ties stops working with its folder: the platform no longer reaches its cloud accounts, "+
			"Chainguard's GitHub Apps lose their link to its installations, and Chainguard's services stop acting in it.")
		return
	}
	a := as[0]
	var lines []safe.Text
	if a.Amazon != nil {
		lines = append(lines, "AWS account "+safe.Of(a.Amazon.Account)+": the platform can no longer exchange credentials with it.")
	}
	if a.Google != nil {
		lines = append(lines, "Google Cloud project "+safe.Of(a.Google.ProjectID)+": the platform can no longer exchange credentials with it.")
	}
	if a.Azure != nil {
		lines = append(lines, "Azure tenant "+safe.Of(a.Azure.TenantID)+": the platform's applications there lose their link to the folder.")
	}
	if a.GitHub != nil {
		lines = append(lines, "GitHub: Chainguard's GitHub Apps lose their link to the folder's installations.")
	}
	if a.Chainguard != nil {
		lines = append(lines, "Chainguard's services ("+safe.Of(strings.Join(sortedKeys(a.Chainguard.ServiceBindings), ", "))+
			") stop acting as their identities in the folder.")
	}
	if len(lines) == 0 {
		lines = append(lines, "It ties no account: only its name and description go.")
	}
	cfg.Lines = append(cfg.Lines, lines...)
	cfg.Lines = append(cfg.Lines, "The folder and what it holds stay; a new association can be made in it.")
}

// sortedKeys are m's keys in order.
func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
