// Package identity says how an identity is assumed, in the words the
// table, the tree and the detail pane share: its claim match (each of
// issuer, subject and audience exact or a pattern, and further claims),
// static keys, an AWS account, or a service. Every string it returns from
// the server is made safe.
package identity

import (
	"encoding/json"
	"maps"
	"slices"
	"strconv"
	"strings"

	"canopy/api"
	"canopy/safe"
)

// Part is one fact of how an identity is assumed: a label ("issuer",
// "subject"), its value made safe (a regular expression marked "~ "),
// and, for a member of a claim match, the member's proto name (an edit's
// mask path is api.ClaimMatchField(Member)).
type Part struct {
	Label  string
	Value  string
	Member string
	// Raw is the value as the server sent it (for an editor's start), and
	// Pattern says it is a regular expression, not an exact value.
	Raw     string
	Pattern bool
}

// Kind names how the identity is assumed: "claim match", "static keys",
// "aws", "service", or "" for none (a person who signs in).
func Kind(id *api.Identity) string { return id.AssumedBy() }

// exactOr is the exact member when set, else the pattern one.
func exactOr(exact, pattern, label, member, patternMember string) (Part, bool) {
	switch {
	case exact != "":
		return Part{Label: label, Value: safe.String(exact), Member: member, Raw: exact}, true
	case pattern != "":
		return Part{Label: label, Value: "~ " + safe.String(pattern), Member: patternMember, Raw: pattern, Pattern: true}, true
	}
	return Part{}, false
}

// ClaimParts are the members of a claim match that are set, in the order
// issuer, subject, audience, then each further claim by name.
func ClaimParts(cm *api.ClaimMatch) []Part {
	if cm == nil {
		return nil
	}
	var out []Part
	for _, p := range []struct{ exact, pattern, label, member, patternMember string }{
		{cm.Issuer, cm.IssuerPattern, "issuer", api.ClaimIssuer, api.ClaimIssuerPattern},
		{cm.Subject, cm.SubjectPattern, "subject", api.ClaimSubject, api.ClaimSubjectPattern},
		{cm.Audience, cm.AudiencePattern, "audience", api.ClaimAudience, api.ClaimAudiencePattern},
	} {
		if part, ok := exactOr(p.exact, p.pattern, p.label, p.member, p.patternMember); ok {
			out = append(out, part)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(cm.Claims)) {
		out = append(out, Part{Label: "claim", Value: safe.String(k) + " = " + safe.String(cm.Claims[k])})
	}
	for _, k := range slices.Sorted(maps.Keys(cm.ClaimPatterns)) {
		out = append(out, Part{Label: "claim", Value: safe.String(k) + " ~ " + safe.String(cm.ClaimPatterns[k]), Pattern: true})
	}
	return out
}

// Parts are every fact of how the identity is assumed, whichever way it is.
func Parts(id *api.Identity) []Part {
	switch {
	case id.ClaimMatch != nil:
		return ClaimParts(id.ClaimMatch)
	case id.StaticKeys != nil:
		sk := id.StaticKeys
		out := []Part{{Label: "issuer", Value: safe.String(sk.Issuer)}, {Label: "subject", Value: safe.String(sk.Subject)},
			{Label: "keys", Value: keyCount(sk.IssuerKeys)}}
		if len(sk.Audiences) > 0 {
			out = append(out, Part{Label: "audiences", Value: safe.String(strings.Join(sk.Audiences, ", "))})
		}
		return out
	case id.AWSIdentity != nil:
		aws := id.AWSIdentity
		out := []Part{{Label: "aws account", Value: safe.String(aws.AWSAccount)}}
		if p, ok := exactOr(aws.ARN, aws.ARNPattern, "arn", "", ""); ok {
			out = append(out, p)
		}
		if p, ok := exactOr(aws.UserID, aws.UserIDPattern, "user id", "", ""); ok {
			out = append(out, p)
		}
		return out
	case id.ServicePrincipal != "":
		return []Part{{Label: "service", Value: Service(id.ServicePrincipal)}}
	}
	return nil
}

// Service is a service principal in words ("catalog syncer").
func Service(p string) string {
	return safe.String(strings.ToLower(strings.ReplaceAll(strings.TrimPrefix(p, "SERVICE_PRINCIPAL_"), "_", " ")))
}

// keyCount says how many keys a JWKS holds ("2 keys"), or that it is not
// one the client can read.
func keyCount(jwks string) string {
	if jwks == "" {
		return ""
	}
	var set struct {
		Keys []json.RawMessage `json:"keys"`
	}
	if json.Unmarshal([]byte(jwks), &set) != nil {
		return "a key set that is not JWKS JSON"
	}
	if len(set.Keys) == 1 {
		return "1 key"
	}
	return strconv.Itoa(len(set.Keys)) + " keys"
}

// Issuer is who issues the tokens that assume the identity, for a column:
// the issuer (a pattern marked "~"), the AWS account, or the service.
func Issuer(id *api.Identity) safe.Text {
	switch {
	case id.ClaimMatch != nil:
		return marked(id.ClaimMatch.Issuer, id.ClaimMatch.IssuerPattern)
	case id.StaticKeys != nil:
		return safe.Of(id.StaticKeys.Issuer)
	case id.AWSIdentity != nil:
		return "aws " + safe.Of(id.AWSIdentity.AWSAccount)
	case id.ServicePrincipal != "":
		return "service"
	}
	return ""
}

// Subject is whose tokens assume the identity, for a column: the subject
// (a pattern marked "~"), the AWS ARN, or the service's name.
func Subject(id *api.Identity) safe.Text {
	switch {
	case id.ClaimMatch != nil:
		return marked(id.ClaimMatch.Subject, id.ClaimMatch.SubjectPattern)
	case id.StaticKeys != nil:
		return safe.Of(id.StaticKeys.Subject)
	case id.AWSIdentity != nil:
		return marked(id.AWSIdentity.ARN, id.AWSIdentity.ARNPattern)
	case id.ServicePrincipal != "":
		return safe.Of(Service(id.ServicePrincipal))
	}
	return ""
}

// marked is the exact value, else the pattern after "~ ".
func marked(exact, pattern string) safe.Text {
	if exact != "" || pattern == "" {
		return safe.Of(exact)
	}
	return "~ " + safe.Of(pattern)
}
