package ui

// An identity's claim match is edited one member at a time, each with
// its own mask path.

import (
	"context"
	"strings"

	"canopy/api"
	"canopy/views/form"
	"canopy/views/identity"
)

// claimEdits edit an identity's claim match one member at a time (the
// issuer, the subject, the audience: each exact or a pattern, as it is),
// with that member's mask path, so that every other part of the identity
// stays exactly as it was.
func claimEdits(c *api.Client, id api.Identity) []edit {
	var out []edit
	for _, p := range identity.ClaimParts(id.ClaimMatch) {
		if p.Member == "" {
			continue // further claims are shown, not edited here
		}
		member, key := p.Member, claimKey(p.Member)
		validate := required
		switch {
		case strings.HasSuffix(member, "_pattern"):
			validate = pattern
		case member == api.ClaimIssuer:
			validate = issuerURL
		}
		placeholder := ""
		if p.Pattern {
			placeholder = "a regular expression"
		}
		out = append(out, edit{mask: api.ClaimMatchField(member), sends: api.Identities.Patch(id.UID, api.ClaimMatchField(member)), name: id.Name, noun: "identity",
			fields: []form.Field{{Key: key, Label: p.Label, Value: p.Raw, Validate: validate, Placeholder: placeholder}},
			patch: func(ctx context.Context, v map[string]string) (any, error) {
				next := id
				cm := *id.ClaimMatch
				setClaim(&cm, member, v[key])
				next.ClaimMatch = &cm
				return c.PatchIdentity(ctx, next, api.ClaimMatchField(member))
			}})
	}
	return out
}

// claimKey is a claim member's form key: its JSON path ("claimMatch.issuerPattern"),
// which is also how the server's field violations name it.
func claimKey(member string) string { return "claimMatch." + api.JSONName(member) }

// setClaim sets one member of a claim match.
func setClaim(cm *api.ClaimMatch, member, v string) {
	switch member {
	case api.ClaimIssuer:
		cm.Issuer = v
	case api.ClaimIssuerPattern:
		cm.IssuerPattern = v
	case api.ClaimSubject:
		cm.Subject = v
	case api.ClaimSubjectPattern:
		cm.SubjectPattern = v
	case api.ClaimAudience:
		cm.Audience = v
	case api.ClaimAudiencePattern:
		cm.AudiencePattern = v
	}
}

// jsonPath is a field path with each part in JSON form (claim_match.issuer
// → claimMatch.issuer).
func jsonPath(p string) string {
	parts := strings.Split(p, ".")
	for i, s := range parts {
		parts[i] = api.JSONName(s)
	}
	return strings.Join(parts, ".")
}

// claimMembers are the members of a claim match an edit may change.
func claimMembers() []string {
	return []string{api.ClaimIssuer, api.ClaimIssuerPattern, api.ClaimSubject, api.ClaimSubjectPattern,
		api.ClaimAudience, api.ClaimAudiencePattern}
}
