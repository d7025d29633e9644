package ui

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"canopy/api"
	"canopy/lazyregexp"
	"canopy/resource"
	"canopy/views/columns"
	"canopy/views/form"
)

// An association's parts as form fields: the same fields make a new one
// (those of the provider chosen) and edit one part at a time, each part's
// mask replacing it whole. A part's fields left empty remove it. A map
// (Azure's applications, GitHub's installations, Chainguard's services)
// is one line of "name=value" pairs, written in one order so that what is
// read back compares with what was sent.

// associationEdits are the parts of an association, its name first, each
// edited alone with its own mask.
func associationEdits(c *api.Client, a *api.AccountAssociation) []edit {
	it := *a
	part := func(mask string) edit {
		return edit{mask: mask, sends: api.AccountAssociations.Patch(it.UID, mask), name: it.Name, noun: resource.Association,
			fields: partFields(mask, &it),
			patch: func(ctx context.Context, v map[string]string) (any, error) {
				next := it
				if err := setPart(&next, mask, v); err != nil {
					return nil, err
				}
				return c.PatchAccountAssociation(ctx, next, mask)
			}}
	}
	return []edit{part(api.FieldName), part(api.FieldDescription), part(api.FieldAmazon), part(api.FieldGoogle),
		part(api.FieldAzure), part(api.FieldGitHub), part(api.FieldChainguard)}
}

// partFields are the fields of the part of a named by mask, holding its
// values (none for a new one).
func partFields(mask string, a *api.AccountAssociation) []form.Field {
	switch mask {
	case api.FieldName:
		return []form.Field{{Key: "name", Label: "name", Value: a.Name, Validate: required}}
	case api.FieldDescription:
		return []form.Field{{Key: "description", Label: "description", Value: a.Description, Validate: description, Max: api.DescriptionMax}}
	case api.FieldAmazon:
		v := ""
		if a.Amazon != nil {
			v = a.Amazon.Account
		}
		return []form.Field{{Key: "amazon.account", Label: labelAWS, Value: v, Placeholder: "12 digits (empty: none)",
			Validate: optional(awsAccount, "12 digits"), Max: 12}}
	case api.FieldGoogle:
		var id, num string
		if a.Google != nil {
			id, num = a.Google.ProjectID, a.Google.ProjectNumber
		}
		return []form.Field{
			{Key: "google.projectId", Label: labelGCPProject, Value: id, Placeholder: "the project's id (empty: none)",
				Validate: optionalBy(api.CheckGoogleProjectID), Max: api.GoogleProjectIDMax},
			{Key: "google.projectNumber", Label: labelGCPNumber, Value: num, Placeholder: "its number",
				Validate: optionalBy(api.CheckGoogleProjectNumber)}}
	case api.FieldAzure:
		var tenant, clients string
		if a.Azure != nil {
			tenant, clients = a.Azure.TenantID, pairsText(a.Azure.ClientIDs)
		}
		return []form.Field{
			{Key: "azure.tenantId", Label: labelAzureTenant, Value: tenant, Placeholder: "the Entra tenant's id (empty: none)",
				Validate: optional(guid, "a GUID")},
			{Key: "azure.clientIds", Label: labelAzureClients, Value: clients, Placeholder: "component=client id, …",
				Validate: pairsOf(guid, "a client id (a GUID)")}}
	case api.FieldGitHub:
		v := ""
		if a.GitHub != nil {
			v = githubText(a.GitHub)
		}
		return []form.Field{{Key: "github.appInstallations", Label: labelGitHub, Value: v,
			Placeholder: "app id:installation id account, … (empty: none)", Validate: func(s string) error { _, err := parseGitHub(s); return err }}}
	case api.FieldChainguard:
		v := ""
		if a.Chainguard != nil {
			v = pairsText(a.Chainguard.ServiceBindings)
		}
		return []form.Field{{Key: "chainguard.serviceBindings", Label: labelServices, Value: v,
			Placeholder: "SERVICE=identity uid, … (empty: none)", Validate: pairsOf(uidShape, "an identity's uid")}}
	}
	return nil
}

// setPart sets the part of next named by mask from a form's values (by
// field key); a part whose fields are all empty is removed. A value the
// part cannot take is refused beside its field.
func setPart(next *api.AccountAssociation, mask string, v map[string]string) error {
	get := func(k string) string { return strings.TrimSpace(v[k]) }
	both := func(a, b string) (bool, error) {
		switch va, vb := get(a), get(b); {
		case va == "" && vb == "":
			return false, nil
		case va == "":
			return false, &fieldError{key: a, why: "required with " + b + " (both empty: none)"}
		case vb == "":
			return false, &fieldError{key: b, why: "required with " + a + " (both empty: none)"}
		}
		return true, nil
	}
	switch mask {
	case api.FieldName:
		next.Name = v["name"]
	case api.FieldDescription:
		next.Description = v["description"]
	case api.FieldAmazon:
		next.Amazon = nil
		if acct := get("amazon.account"); acct != "" {
			next.Amazon = &api.AmazonAccount{Account: acct}
		}
	case api.FieldGoogle:
		set, err := both("google.projectId", "google.projectNumber")
		next.Google = nil
		if set {
			next.Google = &api.GoogleProject{ProjectID: get("google.projectId"), ProjectNumber: get("google.projectNumber")}
		}
		return err
	case api.FieldAzure:
		set, err := both("azure.tenantId", "azure.clientIds")
		next.Azure = nil
		if err != nil || !set {
			return err
		}
		clients, err := parsePairs(get("azure.clientIds"))
		if err != nil {
			return &fieldError{key: "azure.clientIds", why: err.Error()}
		}
		next.Azure = &api.AzureTenant{TenantID: get("azure.tenantId"), ClientIDs: clients}
	case api.FieldGitHub:
		g, err := parseGitHub(get("github.appInstallations"))
		if err != nil {
			return &fieldError{key: "github.appInstallations", why: err.Error()}
		}
		next.GitHub = g
	case api.FieldChainguard:
		next.Chainguard = nil
		if s := get("chainguard.serviceBindings"); s != "" {
			bindings, err := parsePairs(s)
			if err != nil {
				return &fieldError{key: "chainguard.serviceBindings", why: err.Error()}
			}
			next.Chainguard = &api.ChainguardServices{ServiceBindings: bindings}
		}
	}
	return nil
}

// The shapes the providers give their ids: an AWS account's, an Entra
// tenant's or application's (a Google Cloud project's: package api).
var (
	awsAccount = lazyregexp.New(`^[0-9]{12}$`)
	guid       = lazyregexp.New(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)
)

// optional takes an empty value, or one of re's shape.
func optional(re *lazyregexp.Regexp, what string) func(string) error {
	return func(s string) error {
		if s = strings.TrimSpace(s); s != "" && !re.MatchString(s) {
			return errors.New(what)
		}
		return nil
	}
}

// optionalBy takes an empty value, or one check passes; its error says
// the rule the value breaks (a project id's hyphen at the end).
func optionalBy(check func(string) error) func(string) error {
	return func(s string) error {
		if s = strings.TrimSpace(s); s != "" {
			return check(s)
		}
		return nil
	}
}

// pairsOf takes an empty value, or "name=value, …" with each value of
// re's shape.
func pairsOf(re *lazyregexp.Regexp, what string) func(string) error {
	return func(s string) error {
		m, err := parsePairs(s)
		if err != nil {
			return err
		}
		for k, v := range m {
			if !re.MatchString(v) {
				return fmt.Errorf("%s: not %s", k, what)
			}
		}
		return nil
	}
}

// pairsText is a map as one line: "a=1, b=2", by name.
func pairsText(m map[string]string) string {
	parts := make([]string, 0, len(m))
	for _, k := range sortedKeys(m) {
		parts = append(parts, k+"="+m[k])
	}
	return strings.Join(parts, ", ")
}

// parsePairs reads "a=1, b=2" (nil for an empty line).
func parsePairs(s string) (map[string]string, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	out := map[string]string{}
	for _, p := range strings.Split(s, ",") {
		k, v, ok := strings.Cut(p, "=")
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		switch {
		case !ok || k == "" || v == "":
			return nil, fmt.Errorf("%q is not name=value", strings.TrimSpace(p))
		case out[k] != "":
			return nil, fmt.Errorf("%s twice", k)
		}
		out[k] = v
	}
	return out, nil
}

// githubText is GitHub's installations as one line: "app:installation
// account, …", the apps in order, each's installations as they came.
func githubText(g *api.GitHubApps) string {
	var parts []string
	for _, app := range columns.GitHubApps(g) {
		for _, in := range g.AppInstallations[app].Installations {
			parts = append(parts, strings.TrimSpace(app+":"+strconv.FormatInt(int64(in.InstallationID), 10)+" "+in.Name))
		}
	}
	return strings.Join(parts, ", ")
}

// parseGitHub reads githubText's line (nil for an empty one).
func parseGitHub(s string) (*api.GitHubApps, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	out := &api.GitHubApps{AppInstallations: map[string]api.GitHubAppInstallations{}}
	for _, p := range strings.Split(s, ",") {
		words := strings.Fields(p)
		if len(words) == 0 {
			return nil, errors.New("an empty entry: app id:installation id account")
		}
		app, in, ok := strings.Cut(words[0], ":")
		a, errA := strconv.ParseInt(app, 10, 64)
		i, errI := strconv.ParseInt(in, 10, 64)
		if !ok || errA != nil || errI != nil || a <= 0 || i <= 0 {
			return nil, fmt.Errorf("%q is not app id:installation id", words[0])
		}
		key := strconv.FormatInt(a, 10)
		ins := out.AppInstallations[key]
		ins.Installations = append(ins.Installations, api.GitHubInstallation{InstallationID: api.Int64(i), Name: strings.Join(words[1:], " ")})
		out.AppInstallations[key] = ins
	}
	return out, nil
}
