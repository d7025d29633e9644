package safe_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Only this package makes a Text from a string: anywhere else, a
// conversion would let server text past the renderers unchecked.
func TestNoTextConversions(t *testing.T) {
	root := "../.."
	conversion := regexp.MustCompile(`\bsafe\.Text\(`)
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") && path != root || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(src), "\n") {
			if conversion.MatchString(line) {
				t.Errorf("%s:%d converts a string to safe.Text: use safe.Of (or a constant)", path, i+1)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
