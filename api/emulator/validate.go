package emulator

import (
	"encoding/json"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"canopy/api"
)

var (
	identityNamePattern = regexp.MustCompile(`^[a-z0-9 ._-]{1,}$`)
	tagNamePattern      = regexp.MustCompile(`^[a-zA-Z0-9_][a-zA-Z0-9._-]{0,127}$`)
	repoNamePattern     = regexp.MustCompile(`^[a-z0-9][a-z0-9._/-]{0,127}$`)
	digestPattern       = regexp.MustCompile(`^sha256:[0-9a-f]{64}$`)
)

// catalogTiers are the accepted Repo.catalogTier values.
var catalogTiers = []string{"CATALOG_TIER_APPLICATION", "CATALOG_TIER_BASE", "CATALOG_TIER_FIPS",
	"CATALOG_TIER_AI", "CATALOG_TIER_DEVTOOLS", "CATALOG_TIER_COMMERCIAL"}

// checkDescription enforces API.md's description pattern: at most 512 printable characters.
func checkDescription(domain, field, s string) *apiErr {
	if n := utf8.RuneCountInString(s); n > 512 {
		return badField(domain, field, fmt.Sprintf("must be at most 512 characters, got %d", n))
	}
	for _, r := range s {
		if !unicode.IsPrint(r) {
			return badField(domain, field, fmt.Sprintf("must contain printable characters only, found %U", r))
		}
	}
	return nil
}

// checkName requires a printable name of 1..max characters.
func checkName(domain, field, s string, max int) *apiErr {
	if strings.TrimSpace(s) == "" {
		return badField(domain, field, "is required")
	}
	if n := utf8.RuneCountInString(s); n > max {
		return badField(domain, field, fmt.Sprintf("must be at most %d characters, got %d", max, n))
	}
	return checkDescription(domain, field, s)
}

func checkIdentityName(s string) *apiErr {
	if s == "" {
		return badField(domainIAM, "name", "is required")
	}
	if len(s) > 63 || !identityNamePattern.MatchString(s) {
		return badField(domainIAM, "name", fmt.Sprintf("%q must be 1 to 63 characters of a-z, 0-9, space, '.', '_' or '-' (pattern ^[a-z0-9 ._-]{1,}$)", s))
	}
	return nil
}

func checkHTTPSURL(domain, field, s string) *apiErr {
	u, err := url.Parse(s)
	if s == "" || err != nil || u.Scheme != "https" || u.Host == "" {
		return badField(domain, field, fmt.Sprintf("%q must be an https URL", s))
	}
	return nil
}

// patchMask works out which fields a PATCH changes (spec, PATCH rules):
// the updateMask when given ("*" = every updatable field), else the fields
// present in the body. known lists every field of the resource; updatable
// the ones a PATCH may change.
func patchMask(c *call, domain string, raw map[string]json.RawMessage, known, updatable []string) ([]string, *apiErr) {
	p := params{c.r.URL.Query()}
	mask := p.all("update_mask")
	if len(mask) == 0 {
		for k := range raw {
			if slices.Contains(updatable, k) {
				mask = append(mask, k)
			}
		}
		slices.Sort(mask)
		return mask, nil
	}
	if len(mask) == 1 && mask[0] == "*" {
		// Full replacement: every updatable field (a member path such as
		// claimMatch.issuer is covered by its object).
		var all []string
		for _, f := range updatable {
			if !strings.Contains(f, ".") {
				all = append(all, f)
			}
		}
		return all, nil
	}
	out := make([]string, 0, len(mask))
	for _, f := range mask {
		name := camel(f)
		if top, _, dotted := strings.Cut(name, "."); dotted && !slices.Contains(updatable, name) && slices.Contains(known, top) {
			members := []string{}
			for _, u := range updatable {
				if strings.HasPrefix(u, top+".") {
					members = append(members, u)
				}
			}
			if len(members) == 0 {
				return nil, badField(domain, "updateMask", fmt.Sprintf("field %q has no updatable members; updatable: %s", f, strings.Join(updatable, ", ")))
			}
			return nil, badField(domain, "updateMask", fmt.Sprintf("unknown member %q; updatable: %s", f, strings.Join(updatable, ", ")))
		}
		switch {
		case slices.Contains(updatable, name):
			out = append(out, name)
		case slices.Contains(known, name):
			return nil, badField(domain, "updateMask", fmt.Sprintf("field %q cannot be updated; updatable: %s", f, strings.Join(updatable, ", ")))
		default:
			return nil, badField(domain, "updateMask", fmt.Sprintf("unknown field %q; updatable: %s", f, strings.Join(updatable, ", ")))
		}
	}
	return out, nil
}

// decodePatch reads a PATCH body both as raw fields (to see which are
// present) and into dst.
func decodePatch(c *call, domain string, dst any) (map[string]json.RawMessage, *apiErr) {
	var raw map[string]json.RawMessage
	body, e := readBody(c, domain)
	if e != nil {
		return nil, e
	}
	if err := json.Unmarshal(body, &raw); err != nil {
		return nil, malformed(domain, err)
	}
	dec := json.NewDecoder(strings.NewReader(string(body)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(dst); err != nil {
		return nil, malformed(domain, err)
	}
	return raw, nil
}

func malformed(domain string, err error) *apiErr {
	return newErr(api.CodeInvalidArgument, domain, "malformed JSON body: "+err.Error(),
		api.Detail{BadRequest: &api.BadRequest{FieldViolations: []api.FieldViolation{{Field: "body", Description: err.Error()}}}})
}
