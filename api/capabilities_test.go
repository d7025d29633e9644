package api_test

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"testing"

	"canopy/api"
)

// enumValue is one value of the capability enum as its definition says.
type enumValue struct {
	short                  string
	deprecated, staffsOnly bool
}

// readCapabilityEnum reads every CAP_ value of capabilities.proto with its
// short name and whether it is deprecated or Chainguard's own.
func readCapabilityEnum(t *testing.T) map[string]enumValue {
	t.Helper()
	path := filepath.Join(protoDir(t), "capabilities", "capabilities.proto")
	src, err := os.ReadFile(path)
	if err != nil {
		t.Skipf("the vendor's capability enum is not at %s: %v", path, err)
	}
	value := regexp.MustCompile(`(?m)^\s*(CAP_[A-Z0-9_]+)\s*=\s*\d+\s*(\[[^\]]*\])?\s*;`)
	short := regexp.MustCompile(`\(name\)\s*=\s*"([^"]*)"`)
	out := map[string]enumValue{}
	for _, m := range value.FindAllStringSubmatch(string(src), -1) {
		v := enumValue{deprecated: regexp.MustCompile(`deprecated\s*=\s*true`).MatchString(m[2]),
			staffsOnly: regexp.MustCompile(`\(internal_only\)\s*=\s*true`).MatchString(m[2])}
		if s := short.FindStringSubmatch(m[2]); s != nil {
			v.short = s[1]
		}
		out[m[1]] = v
	}
	if len(out) < 100 {
		t.Fatalf("read only %d capabilities from %s", len(out), path)
	}
	return out
}

// TestCapabilityCatalogueIsTheEnumsGrantableValues holds the catalogue to
// the vendor's enum: every value a customer's role may hold is in it,
// under the short name the enum gives it, and nothing else is (a value the
// enum keeps reserved, marks deprecated or keeps for Chainguard's staff;
// CAP_INTERNAL, which marks a role as Chainguard's own). Each domain's
// capabilities come together, so a picker can group them as listed.
func TestCapabilityCatalogueIsTheEnumsGrantableValues(t *testing.T) {
	t.Parallel()
	enum := readCapabilityEnum(t)
	cat := api.Capabilities()
	inCat := map[string]bool{}
	shorts := map[string]bool{}
	var domains []string
	for _, c := range cat {
		v, defined := enum[c.Name]
		switch {
		case !defined:
			t.Errorf("%s (%s) is not a value of the enum (or it keeps it reserved)", c.Name, c.Short)
		case v.deprecated:
			t.Errorf("%s is deprecated: no new role should grant it", c.Name)
		case v.staffsOnly:
			t.Errorf("%s is Chainguard's own (internal_only): a customer's role cannot hold it", c.Name)
		case c.Name == "CAP_INTERNAL":
			t.Errorf("CAP_INTERNAL marks a role as Chainguard's own: it is not granted by a customer's role")
		case v.short != c.Short:
			t.Errorf("%s is %q in the catalogue, %q in the enum", c.Name, c.Short, v.short)
		}
		if inCat[c.Name] || shorts[c.Short] {
			t.Errorf("%s (%s) is in the catalogue twice", c.Name, c.Short)
		}
		inCat[c.Name], shorts[c.Short] = true, true
		if c.Domain == "" {
			t.Errorf("%s has no domain", c.Name)
		}
		if n := len(domains); n == 0 || domains[n-1] != c.Domain {
			if slices.Contains(domains, c.Domain) {
				t.Errorf("%s comes apart from the rest of %q", c.Name, c.Domain)
			}
			domains = append(domains, c.Domain)
		}
	}
	for name, v := range enum {
		if !inCat[name] && !v.deprecated && !v.staffsOnly && name != "CAP_INTERNAL" {
			t.Errorf("%s (%s) is a capability a customer's role may hold: the catalogue lacks it", name, v.short)
		}
	}
	for _, name := range []string{"identity.list", "CAP_IAM_IDENTITY_LIST"} {
		if c, ok := api.CapabilityOf(name); !ok || c.Name != "CAP_IAM_IDENTITY_LIST" || c.Domain != api.DomainIdentities {
			t.Errorf("CapabilityOf(%q) = %+v, %v", name, c, ok)
		}
	}
	for _, name := range []string{"CAP_INTERNAL", "CAP_SIGSTORE_LIST", "CAP_REPO_INTERNAL_ADMIN", "registry.pull", ""} {
		if c, ok := api.CapabilityOf(name); ok {
			t.Errorf("CapabilityOf(%q) = %+v: not one a customer's role may hold", name, c)
		}
	}
	t.Logf("%d capabilities in %d domains", len(cat), len(domains))
}
