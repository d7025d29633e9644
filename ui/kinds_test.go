package ui

import (
	"testing"

	"canopy/resource"
)

// TestEveryKindIsItsDescriptors: the shell's kinds are package resource's,
// one each, named as it names them; a kind with a `:` command has the
// table it opens, and one without says why.
func TestEveryKindIsItsDescriptors(t *testing.T) {
	t.Parallel()
	r := kinds(nil)
	seen := map[string]bool{}
	for _, k := range r.all {
		d, ok := resource.Of(k.noun)
		if !ok {
			t.Errorf("the shell's kind %q has no descriptor", k.noun)
			continue
		}
		seen[d.Noun] = true
		switch {
		case d.Command != "" && (k.command == nil || k.whole == nil || k.table == nil):
			t.Errorf("%s: :%s opens no table here", d.Noun, d.Command)
		case d.Command == "" && d.NoCommand == "":
			t.Errorf("%s: no `:` command, and no word why", d.Noun)
		case d.Plugin != "" && len(d.Gives) > 0 && k.vars == nil:
			t.Errorf("%s: plugins are told it gives %v, but the shell gives none", d.Noun, d.Gives)
		case d.Plugin == "" && d.NoPlugin == "":
			t.Errorf("%s: no plugin runs on it, and no word why", d.Noun)
		}
	}
	for _, d := range resource.Kinds() {
		if !seen[d.Noun] {
			t.Errorf("%s: described, but the shell has no such kind", d.Noun)
		}
	}
}
