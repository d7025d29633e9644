package emulator

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"time"

	"canopy/api"
	"canopy/lazyregexp"
)

// staticKeysLifetime is how long static keys last at most, and by default.
const staticKeysLifetime = 365 * day

// servicePrincipals are the ServicePrincipal values an identity may have
// (every one but UNSPECIFIED).
var servicePrincipals = []string{
	"SERVICE_PRINCIPAL_COSIGNED", "SERVICE_PRINCIPAL_INGESTER", "SERVICE_PRINCIPAL_CATALOG_SYNCER",
	"SERVICE_PRINCIPAL_APKO_BUILDER", "SERVICE_PRINCIPAL_ENTITLEMENT_SYNCER", "SERVICE_PRINCIPAL_TENANT_SCANNER",
	"SERVICE_PRINCIPAL_SEDIMENTOLOGY", "SERVICE_PRINCIPAL_SKILLUP", "SERVICE_PRINCIPAL_MATERIALIZER",
	"SERVICE_PRINCIPAL_MICROFLOW", "SERVICE_PRINCIPAL_GUARDENER", "SERVICE_PRINCIPAL_MICROVM", "SERVICE_PRINCIPAL_SKILLS",
}

// awsAccountPattern is an AWS account id: 12 digits.
var awsAccountPattern = lazyregexp.New(`^[0-9]{12}$`)

// exactOrPattern checks one oneof pair: at most one set, required when
// asked, an exact issuer a URL and a pattern a regular expression.
func exactOrPattern(field, exact, pattern string, required, url bool) *apiErr {
	name := "claimMatch." + field
	switch {
	case exact != "" && pattern != "":
		return badField(domainIAM, name, fmt.Sprintf("set %s or %sPattern, not both", field, field))
	case exact == "" && pattern == "" && required:
		return badField(domainIAM, name, fmt.Sprintf("is required: set %s or %sPattern", field, field))
	case pattern != "":
		if _, err := regexp.Compile(pattern); err != nil {
			return badField(domainIAM, name+"Pattern", fmt.Sprintf("%q is not a regular expression: %v", pattern, err))
		}
	case url && exact != "" && !strings.HasPrefix(exact, "https://") && !strings.HasPrefix(exact, "http://"):
		return badField(domainIAM, name, fmt.Sprintf("%q must be the URL of a token issuer", exact))
	}
	return nil
}

// checkClaimMatch requires an issuer and a subject, each exact or a
// pattern, and checks every pattern compiles.
func checkClaimMatch(cm *api.ClaimMatch) *apiErr {
	for _, p := range []struct {
		field, exact, pattern string
		required, url         bool
	}{
		{"issuer", cm.Issuer, cm.IssuerPattern, true, true},
		{"subject", cm.Subject, cm.SubjectPattern, true, false},
		{"audience", cm.Audience, cm.AudiencePattern, false, false},
	} {
		if e := exactOrPattern(p.field, p.exact, p.pattern, p.required, p.url); e != nil {
			return e
		}
	}
	for k := range cm.Claims {
		if k == "" {
			return badField(domainIAM, "claimMatch.claims", "a claim needs a name")
		}
	}
	for k, v := range cm.ClaimPatterns {
		if k == "" {
			return badField(domainIAM, "claimMatch.claimPatterns", "a claim needs a name")
		}
		if _, err := regexp.Compile(v); err != nil {
			return badField(domainIAM, "claimMatch.claimPatterns", fmt.Sprintf("claim %q: %q is not a regular expression: %v", k, v, err))
		}
	}
	return nil
}

// checkStaticKeys requires an issuer, a subject and a JWKS, at most one
// audience, and (when the expiry is new) an expiry within a year.
func (c *call) checkStaticKeys(sk *api.StaticKeys, newExpiry bool) *apiErr {
	switch {
	case sk.Issuer == "":
		return badField(domainIAM, "staticKeys.issuer", "is required")
	case sk.Subject == "":
		return badField(domainIAM, "staticKeys.subject", "is required")
	case len(sk.Audiences) > 1:
		return badField(domainIAM, "staticKeys.audiences", "only one audience is supported")
	}
	var jwks struct {
		Keys []map[string]any `json:"keys"`
	}
	if err := json.Unmarshal([]byte(sk.IssuerKeys), &jwks); err != nil || len(jwks.Keys) == 0 {
		return badField(domainIAM, "staticKeys.issuerKeys", "must be a JWKS: a JSON object whose keys list holds at least one key")
	}
	if newExpiry {
		now := c.srv.now()
		if t := sk.ExpirationTime.Time(); !t.After(now) || t.After(now.Add(staticKeysLifetime)) {
			return badField(domainIAM, "staticKeys.expirationTime", "must be in the future and at most 365 days away")
		}
	}
	return nil
}

// checkAWSIdentity requires a 12-digit account and checks the patterns.
func checkAWSIdentity(a *api.AWSIdentity) *apiErr {
	if !awsAccountPattern.MatchString(a.AWSAccount) {
		return badField(domainIAM, "awsIdentity.awsAccount", fmt.Sprintf("%q must be a 12-digit AWS account id", a.AWSAccount))
	}
	for _, p := range []struct{ field, exact, pattern string }{
		{"arn", a.ARN, a.ARNPattern}, {"userId", a.UserID, a.UserIDPattern},
	} {
		name := "awsIdentity." + p.field
		if p.exact != "" && p.pattern != "" {
			return badField(domainIAM, name, fmt.Sprintf("set %s or %sPattern, not both", p.field, p.field))
		}
		if _, err := regexp.Compile(p.pattern); err != nil {
			return badField(domainIAM, name+"Pattern", fmt.Sprintf("%q is not a regular expression: %v", p.pattern, err))
		}
	}
	return nil
}

// tokenClaims are the claims of a token the emulator looks at.
type tokenClaims struct {
	Iss    string
	Sub    string
	Aud    []string
	Exp    int64
	Others map[string]string // the other string claims
}

// parseClaims reads a JWT payload: aud may be a string or a list.
func parseClaims(b []byte) (*tokenClaims, error) {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return nil, fmt.Errorf("token claims: %w", err)
	}
	tc := &tokenClaims{Others: map[string]string{}}
	for k, v := range raw {
		var s string
		isString := json.Unmarshal(v, &s) == nil
		switch k {
		case "iss":
			tc.Iss = s
		case "sub":
			tc.Sub = s
		case "exp":
			_ = json.Unmarshal(v, &tc.Exp)
		case "aud":
			if isString {
				tc.Aud = []string{s}
			} else {
				_ = json.Unmarshal(v, &tc.Aud)
			}
		default:
			if isString {
				tc.Others[k] = s
			}
		}
	}
	return tc, nil
}

// fullMatch reports whether the whole of s matches the pattern (a pattern
// that does not compile matches nothing).
func fullMatch(pattern, s string) bool {
	re, err := regexp.Compile(`^(?:` + pattern + `)$`)
	return err == nil && re.MatchString(s)
}

// matchOne is one member pair: exact, else pattern; neither matches all.
func matchOne(exact, pattern, s string) bool {
	switch {
	case exact != "":
		return exact == s
	case pattern != "":
		return fullMatch(pattern, s)
	}
	return true
}

// assumes reports whether a token's claims may assume identity id: by its
// claim match (every member given must match; an audience only when the
// identity names one) or its static keys (issuer and subject, before the
// keys expire). AWS identities and service principals are not assumed
// with an OIDC token, so never here.
func assumes(id *api.Identity, tc *tokenClaims, now time.Time) bool {
	audOK := func(exact, pattern string) bool {
		if exact == "" && pattern == "" {
			return true
		}
		for _, a := range tc.Aud {
			if matchOne(exact, pattern, a) {
				return true
			}
		}
		return false
	}
	switch {
	case id.ClaimMatch != nil:
		cm := id.ClaimMatch
		if (cm.Issuer == "" && cm.IssuerPattern == "") || (cm.Subject == "" && cm.SubjectPattern == "") {
			return false
		}
		if !matchOne(cm.Issuer, cm.IssuerPattern, tc.Iss) || !matchOne(cm.Subject, cm.SubjectPattern, tc.Sub) ||
			!audOK(cm.Audience, cm.AudiencePattern) {
			return false
		}
		for k, v := range cm.Claims {
			if got, ok := tc.Others[k]; !ok || got != v {
				return false
			}
		}
		for k, p := range cm.ClaimPatterns {
			if got, ok := tc.Others[k]; !ok || !fullMatch(p, got) {
				return false
			}
		}
		return true
	case id.StaticKeys != nil:
		sk := id.StaticKeys
		aud := ""
		if len(sk.Audiences) > 0 {
			aud = sk.Audiences[0]
		}
		return sk.Issuer == tc.Iss && sk.Subject == tc.Sub && audOK(aud, "") && now.Before(sk.ExpirationTime.Time())
	}
	return false
}
