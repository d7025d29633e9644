package detail

import (
	"slices"
	"strings"

	"canopy/theme"
)

// language is what the highlighter knows of a language: how its comments
// and strings start and end, and its keywords. It marks comments, strings,
// numbers and keywords, and nothing else: enough to read a readme's
// examples, in one pass over each line.
type language struct {
	lineComments []string // to the end of the line
	blockComment [2]string
	quotes       []string // each ends its string
	// multiline are the quotes whose strings go on past a line's end.
	multiline []string
	// rawQuotes are the quotes in whose strings a backslash escapes nothing.
	rawQuotes []string
	keywords  string // separated by spaces
	foldCase  bool   // keywords match in any case (Dockerfile's FROM, from)
	// firstWord: a keyword is one only as a line's first word (a
	// Dockerfile's instructions: RUN apk add, not ADD).
	firstWord bool
	// hashAfterSpace: # starts a comment only at a word's start (shell's
	// ${#x} and a#b are not comments).
	hashAfterSpace bool
	// keyColon: a line's first word before a colon is a key, marked as a
	// keyword (YAML's `image: cgr.dev/…`, `- name: x`).
	keyColon bool
}

// languageOf is the language a fenced code block names, false for one the
// highlighter does not know, shown plain.
func languageOf(name string) (language, bool) {
	shell := language{lineComments: []string{"#"}, quotes: []string{`"`, `'`}, hashAfterSpace: true,
		keywords: "if then else elif fi for while until do done case esac in function return export local set unset echo cd sudo exit source alias"}
	c := []string{"//"}
	block := [2]string{"/*", "*/"}
	switch strings.ToLower(strings.TrimSpace(name)) {
	case "sh", "bash", "shell", "console", "zsh", "shell-session", "shellsession":
		return shell, true
	case "dockerfile", "docker", "containerfile":
		return language{lineComments: []string{"#"}, quotes: []string{`"`, `'`}, foldCase: true, firstWord: true,
			keywords: "from run cmd label expose env add copy entrypoint volume user workdir arg onbuild stopsignal healthcheck shell maintainer"}, true
	case "yaml", "yml":
		return language{lineComments: []string{"#"}, quotes: []string{`"`, `'`}, hashAfterSpace: true, keyColon: true,
			keywords: "true false null yes no on off"}, true
	case "json", "jsonc", "json5":
		return language{lineComments: c, blockComment: block, quotes: []string{`"`}, keywords: "true false null"}, true
	case "go", "golang":
		return language{lineComments: c, blockComment: block, quotes: []string{`"`, `'`, "`"}, multiline: []string{"`"}, rawQuotes: []string{"`"},
			keywords: "break case chan const continue default defer else fallthrough for func go goto if import interface map package range return select struct switch type var nil true false iota"}, true
	case "python", "py", "python3":
		return language{lineComments: []string{"#"}, quotes: []string{`"""`, `'''`, `"`, `'`}, multiline: []string{`"""`, `'''`},
			keywords: "and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield None True False"}, true
	case "hcl", "terraform", "tf", "tfvars":
		return language{lineComments: []string{"#", "//"}, blockComment: block, quotes: []string{`"`},
			keywords: "resource data variable output module provider locals terraform backend true false null for in if"}, true
	case "javascript", "js", "jsx", "mjs", "node", "typescript", "ts":
		return language{lineComments: c, blockComment: block, quotes: []string{`"`, `'`, "`"}, multiline: []string{"`"},
			keywords: "async await break case catch class const continue default delete do else export extends finally for from function if import in instanceof let new of return switch this throw try typeof var void while yield null undefined true false"}, true
	}
	return language{}, false
}

// highlighter marks one code block's lines, carrying a comment or string
// that goes on past a line's end to the next.
type highlighter struct {
	lang     language
	known    bool
	keywords map[string]bool
	// open is the end of the comment or string a line ends inside.
	open                          string
	openStyle                     string
	base                          string
	comment, str, number, keyword string
}

func newHighlighter(name string, md theme.Markdown) *highlighter {
	lang, known := languageOf(name)
	base := md.CodeBlock.Pre()
	h := &highlighter{lang: lang, known: known, base: base, keywords: map[string]bool{},
		comment: base + md.CodeComment.Pre(), str: base + md.CodeString.Pre(),
		number: base + md.CodeNumber.Pre(), keyword: base + md.CodeKeyword.Pre()}
	for _, k := range strings.Fields(lang.keywords) {
		h.keywords[k] = true
	}
	return h
}

// line is a line of code as spans, each of one class.
func (h *highlighter) line(s string) []span {
	if !h.known {
		return []span{{s, h.base}}
	}
	// Runs are marked by where they start and end in s and joined while
	// their class is the same: a line costs one pass, however long.
	var spans []span
	var runStart, runEnd int
	runStyle := ""
	add := func(from, to int, style string) {
		if from == to {
			return
		}
		if style == runStyle && from == runEnd && runEnd > runStart {
			runEnd = to
			return
		}
		if runEnd > runStart {
			spans = append(spans, span{s[runStart:runEnd], runStyle})
		}
		runStart, runEnd, runStyle = from, to, style
	}
	done := func() []span {
		if runEnd > runStart {
			spans = append(spans, span{s[runStart:runEnd], runStyle})
		}
		return spans
	}
	i, lead := 0, len(s)-len(strings.TrimLeft(s, " "))
	if h.open != "" {
		end, closed := h.closing(s, 0, h.open)
		add(0, end, h.openStyle)
		if !closed {
			return done() // still open
		}
		h.open, i = "", end
	}
	if h.lang.keyColon && h.open == "" && i == 0 {
		if from, to := mappingKey(s, lead); to > from {
			add(0, from, h.base)
			add(from, to, h.keyword)
			i = to
		}
	}
	for i < len(s) {
		rest := s[i:]
		switch {
		case h.lang.blockComment[0] != "" && strings.HasPrefix(rest, h.lang.blockComment[0]):
			end := strings.Index(rest[2:], h.lang.blockComment[1])
			if end < 0 {
				h.open, h.openStyle = h.lang.blockComment[1], h.comment
				add(i, len(s), h.comment)
				return done()
			}
			n := 2 + end + len(h.lang.blockComment[1])
			add(i, i+n, h.comment)
			i += n
		case h.startsComment(s, i):
			add(i, len(s), h.comment)
			return done()
		case h.quoteAt(rest) != "":
			q := h.quoteAt(rest)
			end, closed := h.closing(s, i+len(q), q)
			if !closed && slices.Contains(h.lang.multiline, q) {
				h.open, h.openStyle = q, h.str
			}
			add(i, end, h.str)
			i = end
		case isDigit(s[i]) && (i == 0 || !isWordByte(s[i-1])):
			j := i
			for j < len(s) && (isWordByte(s[j]) || s[j] == '.') {
				j++
			}
			add(i, j, h.number)
			i = j
		case isWordByte(s[i]):
			j := i
			for j < len(s) && isWordByte(s[j]) {
				j++
			}
			word := s[i:j]
			if h.lang.foldCase {
				word = strings.ToLower(word)
			}
			style := h.base
			first := i == lead // the line's first word
			if h.keywords[word] && (i == 0 || s[i-1] != '-' && s[i-1] != '.') && (j == len(s) || s[j] != '-') && (first || !h.lang.firstWord) {
				style = h.keyword
			}
			add(i, j, style)
			i = j
		default:
			add(i, i+1, h.base)
			i++
		}
	}
	return done()
}

// mappingKey is where the key of a mapping line starts and ends in s (to
// == from for none): its first word after the indentation lead and a
// list's "- ", when a colon and then a space or the line's end follow it.
func mappingKey(s string, lead int) (from, to int) {
	from = lead
	if strings.HasPrefix(s[from:], "- ") {
		from += 2
	}
	for to = from; to < len(s); to++ {
		switch c := s[to]; {
		case c == ':' && (to+1 == len(s) || s[to+1] == ' '):
			return from, to
		case c == ' ' || c == '#' || c == '"' || c == '\'' || c == '{' || c == '[':
			return from, from
		}
	}
	return from, from
}

// startsComment reports whether a line comment starts at s[i].
func (h *highlighter) startsComment(s string, i int) bool {
	for _, c := range h.lang.lineComments {
		if strings.HasPrefix(s[i:], c) && (c != "#" || !h.lang.hashAfterSpace || i == 0 || s[i-1] == ' ') {
			return true
		}
	}
	return false
}

// quoteAt is the quote s starts with, "" for none.
func (h *highlighter) quoteAt(s string) string {
	for _, q := range h.lang.quotes {
		if strings.HasPrefix(s, q) {
			return q
		}
	}
	return ""
}

// closing is the index just past the end of a string or comment that q
// ends, starting at s[from], and whether it ends on this line.
func (h *highlighter) closing(s string, from int, q string) (int, bool) {
	raw := slices.Contains(h.lang.rawQuotes, q) || q == h.lang.blockComment[1]
	for i := from; i < len(s); i++ {
		if s[i] == '\\' && !raw {
			i++
			continue
		}
		if strings.HasPrefix(s[i:], q) {
			return i + len(q), true
		}
	}
	return len(s), false
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// isWordByte is a byte of a word: keywords and numbers are whole words.
func isWordByte(c byte) bool {
	return c == '_' || isDigit(c) || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}
