package emulator

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"testing"

	"canopy/api"
)

// TestRolesHoldTheVendorsCapabilities holds every capability a seeded role
// grants to the vendor's capability enum: a value it defines, not one it
// keeps reserved (the old registry pull and push), marks deprecated or
// keeps for Chainguard's own staff. It skips, saying where it looked,
// when the definitions are not beside the checkout.
func TestRolesHoldTheVendorsCapabilities(t *testing.T) {
	path := filepath.Join("..", "..", "..", "shared", "reference", "platform-v2-protos", "capabilities", "capabilities.proto")
	if d := os.Getenv("CANOPY_PROTOS"); d != "" {
		path = filepath.Join(d, "capabilities", "capabilities.proto")
	}
	src, err := os.ReadFile(path)
	if err != nil {
		t.Skipf("the vendor's capability enum is not at %s (CANOPY_PROTOS names another folder of definitions): %v", path, err)
	}
	value := regexp.MustCompile(`(?m)^\s*(CAP_[A-Z0-9_]+)\s*=\s*\d+\s*(\[[^\]]*\])?`)
	defined := map[string]string{}
	for _, m := range value.FindAllStringSubmatch(string(src), -1) {
		defined[m[1]] = m[2]
	}
	if len(defined) < 100 {
		t.Fatalf("read only %d capabilities from %s", len(defined), path)
	}
	roles := append(slices.Clone(builtinRoles), customRoles...)
	for _, r := range roles {
		for _, c := range r.caps(api.Capabilities()) {
			opts, ok := defined[c]
			switch {
			case !ok:
				t.Errorf("role %s grants %s, which the vendor's enum does not define (or keeps reserved)", r.name, c)
			case regexp.MustCompile(`deprecated\s*=\s*true`).MatchString(opts):
				t.Errorf("role %s grants %s, which the vendor's enum marks deprecated", r.name, c)
			case regexp.MustCompile(`internal_only\)\s*=\s*true`).MatchString(opts):
				t.Errorf("role %s grants %s, which only Chainguard's staff may hold", r.name, c)
			}
		}
	}
}
