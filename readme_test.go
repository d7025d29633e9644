package main

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"canopy/resource"
)

// TestReadmeNamesEveryKind: the README, which a new user reads first,
// names every kind's `:` command in its table of commands and every
// collection in canopy list's usage line: a kind added without a word
// there fails here.
func TestReadmeNamesEveryKind(t *testing.T) {
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	usage := regexp.MustCompile("(?m)^canopy list (\\S+)").FindStringSubmatch(readme)
	if usage == nil {
		t.Fatal("the README has no canopy list usage line")
	}
	listed := strings.Split(usage[1], "|")
	commands := regexp.MustCompile("(?m)^\\| (`:[^|]*)\\|").FindAllStringSubmatch(readme, -1)
	var table strings.Builder
	for _, c := range commands {
		table.WriteString(c[1])
	}
	for _, k := range resource.Kinds() {
		if k.Command != "" && !strings.Contains(table.String(), "`:"+k.Command+"`") {
			t.Errorf("%s: :%s is not in the README's table of commands", k.Nouns, k.Command)
		}
		if k.Collection != "" && !slices.Contains(listed, k.Collection) {
			t.Errorf("%s: %s is not in the README's canopy list line (%v)", k.Nouns, k.Collection, listed)
		}
	}
}
