package detail

import (
	"strings"
	"testing"
)

// classes is a code block's lines as the highlighter marks them: each
// marked run as class(text), plain text as it is.
func classes(lang string, lines ...string) string {
	h := newHighlighter(lang, mdLook("dark"))
	name := map[string]string{h.comment: "comment", h.str: "string", h.number: "number", h.keyword: "keyword"}
	var out []string
	for _, l := range lines {
		var b strings.Builder
		for _, s := range h.line(l) {
			if n, ok := name[s.style]; ok {
				b.WriteString(n + "(" + s.text + ")")
				continue
			}
			b.WriteString(s.text)
		}
		out = append(out, b.String())
	}
	return strings.Join(out, "\n")
}

func TestHighlighterMarksEachLanguage(t *testing.T) {
	for _, c := range []struct {
		lang  string
		lines []string
		want  string
	}{
		{"go", []string{`func main() { fmt.Println("hi", 42) } // done`},
			`keyword(func) main() { fmt.Println(string("hi"), number(42)) } comment(// done)`},
		{"go", []string{"s := `raw", `\n still` + "`" + ` /* c`, "c */ x"},
			"s := string(`raw)\nstring(\\n still`) comment(/* c)\ncomment(c */) x"},
		{"sh", []string{`if [ -n "$X" ]; then echo ${#X} # count`, `docker-run done-x 'a # b'`},
			`keyword(if) [ -n string("$X") ]; keyword(then) keyword(echo) ${#X} comment(# count)` + "\n" + `docker-run done-x string('a # b')`},
		{"console", []string{"$ docker pull alpine:3.19"}, "$ docker pull alpine:number(3.19)"},
		{"Dockerfile", []string{"FROM alpine:3.19 AS build", `run apk add "curl" # tools`},
			"keyword(FROM) alpine:number(3.19) AS build\nkeyword(run) apk add string(\"curl\") comment(# tools)"},
		{"yaml", []string{`image: "nginx" # pinned`, "enabled: true", "port: 8080", "  - name: web-1", "env:", "url: http://x", "- plain item"},
			"keyword(image): string(\"nginx\") comment(# pinned)\nkeyword(enabled): keyword(true)\nkeyword(port): number(8080)\n" +
				"  - keyword(name): web-number(1)\nkeyword(env):\nkeyword(url): http://x\n- plain item"},
		{"json", []string{`{"a": [1, 2.5, true, null], "b": "x\"y"}`},
			`{string("a"): [number(1), number(2.5), keyword(true), keyword(null)], string("b"): string("x\"y")}`},
		{"python", []string{`def f(x):  # doc`, `    """multi`, `    line""" + 'x'`, "    return None"},
			"keyword(def) f(x):  comment(# doc)\n    string(\"\"\"multi)\nstring(    line\"\"\") + string('x')\n    keyword(return) keyword(None)"},
		{"terraform", []string{`resource "aws_s3_bucket" "b" {`, `  count = 2 // two`, "  # note"},
			"keyword(resource) string(\"aws_s3_bucket\") string(\"b\") {\n  count = number(2) comment(// two)\n  comment(# note)"},
		{"js", []string{"const s = `a", "b` + 'c'; // x"},
			"keyword(const) s = string(`a)\nstring(b`) + string('c'); comment(// x)"},
		{"brainfuck", []string{`+[->"x"<] // 42`}, `+[->"x"<] // 42`},
		{"", []string{`echo "x" # 1`}, `echo "x" # 1`},
	} {
		if got := classes(c.lang, c.lines...); got != c.want {
			t.Errorf("%s:\n%s\nwant:\n%s", c.lang, got, c.want)
		}
	}
}

// A code block in a known language is shown in the highlighter's styles,
// and its text is all there.
func TestCodeBlocksAreHighlighted(t *testing.T) {
	md := mdLook("dark")
	l := styledLine(t, "```go\nreturn \"s\" // c\n```\n", "return")
	for _, want := range []string{md.CodeKeyword.Pre() + "return", md.CodeString.Pre() + `"s"`, md.CodeComment.Pre() + "// c" + reset} {
		if !strings.Contains(l, want) {
			t.Errorf("missing %q in %q", want, l)
		}
	}
}

// A long line of code is highlighted whole, in runs of its classes: the
// plain text between tokens is one run, not one a byte.
func TestALongLineIsHighlightedInRuns(t *testing.T) {
	line := strings.Repeat("(x) ", 5000) + `"s"`
	spans := newHighlighter("go", mdLook("dark")).line(line)
	if len(spans) != 2 || spans[0].text+spans[1].text != line {
		t.Errorf("%d runs for a line of two classes", len(spans))
	}
}
