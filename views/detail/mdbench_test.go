package detail

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// readmeFixtures are realistic readmes (testdata/readmes): a short one, an
// image's and a library's, and all of them four times over (a long one).
func readmeFixtures(tb testing.TB) map[string]string {
	tb.Helper()
	out := map[string]string{}
	var all strings.Builder
	for _, name := range []string{"short", "image", "library"} {
		b, err := os.ReadFile(filepath.Join("testdata", "readmes", name+".md"))
		if err != nil {
			tb.Fatal(err)
		}
		out[name] = string(b)
		all.WriteString(string(b) + "\n")
	}
	out["all4x"] = strings.Repeat(all.String(), 4)
	return out
}

func TestRealisticReadmesRender(t *testing.T) {
	f := readmeFixtures(t)
	for _, width := range []int{40, 80, 132} {
		lines := strings.Join(renderedLines(t, f["image"], width), "\n")
		for _, want := range []string{"Supported tags", "1.27-alpine", "FROM webserver:1.27-alpine", "WEBSERVER_PORT: 80", "The de facto image."} {
			if !strings.Contains(strings.Join(strings.Fields(lines), " "), want) {
				t.Errorf("at %d the image's readme lacks %q:\n%s", width, want, lines)
			}
		}
		lines = strings.Join(renderedLines(t, f["library"], width), "\n")
		for _, want := range []string{"☑ Priorities", "☐ Cron-like", "def resize(path: str,", "FASTQUEUE_DSN", "Copyright © 2024"} {
			if !strings.Contains(strings.Join(strings.Fields(lines), " "), want) {
				t.Errorf("at %d the library's readme lacks %q:\n%s", width, want, lines)
			}
		}
	}
}

// BenchmarkRenderReadme renders each realistic readme at 80 columns in the
// dark look (BENCHMARKS.md, Start-up: beside glamour's render of them).
//
//	go test ./views/detail -run '^$' -bench RenderReadme -benchmem
func BenchmarkRenderReadme(b *testing.B) {
	f := readmeFixtures(b)
	look := mdLook("dark")
	for _, name := range []string{"short", "image", "library", "all4x"} {
		src := f[name]
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				if r := RenderMarkdown(b.Context(), src, look, 80, 0); r.Note != "" {
					b.Fatal(r.Note)
				}
			}
		})
	}
}
