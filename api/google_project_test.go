package api_test

import (
	"strings"
	"testing"

	"canopy/api"
	"canopy/api/emulator"
)

// A Google Cloud project's id and number are checked by Google's rules,
// and each refusal names the rule broken: here by the checks alone, and
// as the emulator's field violations.
func TestGoogleProjectRulesAreSaid(t *testing.T) {
	t.Parallel()
	ids := map[string]string{
		"acme-apps":             "",
		"a12345":                "",
		"acme-apps-":            "ends with a hyphen: a project id ends with a letter or digit",
		"acme":                  "is 4 characters: a project id has 6 to 30",
		strings.Repeat("a", 31): "is 31 characters: a project id has 6 to 30",
		"1acme-apps":            "starts with '1': a project id starts with a letter",
		"-acme-apps":            "starts with '-': a project id starts with a letter",
		"Acme-apps":             "holds the capital 'A': a project id is lower-case letters, digits and hyphens",
		"acme_apps":             "holds '_': a project id is lower-case letters, digits and hyphens only",
		"":                      "is required",
	}
	for id, want := range ids {
		if err := api.CheckGoogleProjectID(id); (err == nil) != (want == "") || err != nil && !strings.Contains(err.Error(), want) {
			t.Errorf("project id %q: %v, want %q", id, err, want)
		}
	}
	numbers := map[string]string{
		"4815162342":                    "",
		"9223372036854775807":           "",
		"0":                             "is 0: a project number is a positive number",
		"000":                           "is 0: a project number is a positive number",
		"012345":                        "starts with 0: a project number has no leading zeros",
		strings.Repeat("1234567890", 3): "is 30 digits: a project number has at most 19 (a 64-bit number)",
		"9223372036854775808":           "is past 9223372036854775807: a project number is a 64-bit number",
		"12a4":                          "holds 'a': a project number is digits only",
		"-12":                           "holds '-': a project number is digits only",
		"":                              "is required",
	}
	for n, want := range numbers {
		if err := api.CheckGoogleProjectNumber(n); (err == nil) != (want == "") || err != nil && !strings.Contains(err.Error(), want) {
			t.Errorf("project number %q: %v, want %q", n, err, want)
		}
	}

	// The emulator refuses them so, each on its field.
	e := newEnv(t, emulator.Options{}, api.Options{})
	ctx, c := t.Context(), e.client
	apps := pick(t, must(c.ListGroups(ctx, api.ListOptions{ChildrenOf: e.org, Name: "apps"}))(t).Items,
		func(g api.Group) bool { return g.Name == "apps" }).UID
	for _, tc := range []struct{ id, number, field, says string }{
		{"acme-apps-", "4815162342", "google.project_id", `"acme-apps-" ends with a hyphen: a project id ends with a letter or digit`},
		{"acme-apps", "0", "google.project_number", `"0" is 0: a project number is a positive number`},
		{"acme-apps", strings.Repeat("1234567890", 3), "google.project_number", "is 30 digits: a project number has at most 19"},
	} {
		_, err := c.CreateAccountAssociation(ctx, apps, api.AccountAssociation{Name: "apps-gcp",
			Google: &api.GoogleProject{ProjectID: tc.id, ProjectNumber: tc.number}})
		v := api.FieldViolations(err)
		if !api.IsInvalidArgument(err) || len(v) != 1 || v[0].Field != tc.field || !strings.Contains(v[0].Description, tc.says) {
			t.Errorf("%s %s: %v, want %s saying %q", tc.id, tc.number, err, tc.field, tc.says)
		}
	}
}
