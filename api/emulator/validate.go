package emulator

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"canopy/api"
)

// catalogTiers are the accepted Repo.catalogTier values.
var catalogTiers = []string{"CATALOG_TIER_APPLICATION", "CATALOG_TIER_BASE", "CATALOG_TIER_FIPS",
	"CATALOG_TIER_AI", "CATALOG_TIER_DEVTOOLS", "CATALOG_TIER_COMMERCIAL"}

// checkDescription enforces API.md's description pattern: at most 512 printable characters.
func checkDescription(domain, field, s string) *apiErr {
	if n := api.Chars(s); n > api.DescriptionMax {
		return badField(domain, field, fmt.Sprintf("must be at most %d characters, got %d", api.DescriptionMax, n))
	}
	for _, r := range s {
		if !unicode.IsPrint(r) {
			return badField(domain, field, fmt.Sprintf("must contain printable characters only, found %U", r))
		}
	}
	return nil
}

// checkName requires a printable name of min..max characters.
func checkName(domain, field, s string, min, max int) *apiErr {
	if strings.TrimSpace(s) == "" {
		return badField(domain, field, "is required")
	}
	if n := utf8.RuneCountInString(s); n < min || n > max {
		return badField(domain, field, fmt.Sprintf("must be %d to %d characters, got %d", min, max, n))
	}
	return checkDescription(domain, field, s)
}

// checkIdentityName enforces identities.proto's 3 to 63 characters and the
// spec's pattern.
func checkIdentityName(s string) *apiErr {
	if s == "" {
		return badField(domainIAM, "name", "is required")
	}
	if !api.IdentityName.Match(s) {
		return badField(domainIAM, "name", fmt.Sprintf("%q must be 3 to 63 characters of a-z, 0-9, space, '.', '_' or '-' (pattern ^[a-z0-9 ._-]+$)", s))
	}
	return nil
}

func checkHTTPSURL(domain, field, s string) *apiErr {
	if !api.IsHTTPSURL(s) {
		return badField(domain, field, fmt.Sprintf("%q must be an https URL", s))
	}
	return nil
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
