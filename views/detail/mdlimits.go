package detail

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"

	tx "canopy/text"
)

// What a readme may cost to render. canopy's renderer (mdrender.go) does
// work in proportion to what it writes, and checks for cancellation before
// each block; these limits bound what it may write, and goldmark's parse.
// glamour, which rendered readmes before, needed more: a bound on its
// estimated work (it padded every line to the width at every level of
// nesting), on code block lines (it joined them one at a time) and on the
// code highlighted (chroma guessed a language by trying every lexer). Those
// pathologies went with it, and so did the limits.
const (
	// MaxReadme is the most of a readme the pane keeps; the rest is cut,
	// and the pane says so.
	MaxReadme = 512 << 10
	// maxRenderBytes is the largest readme rendered as Markdown.
	maxRenderBytes = 128 << 10
	// maxScanDepth bounds the nesting found by scanning lines, before
	// parsing: goldmark's parse alone costs lines × depth, seconds for a
	// list nested 20,000 deep in 40 KB.
	maxScanDepth = 64
	// maxDepth is the deepest nesting of quotes and lists rendered; fewer
	// fit a narrow pane (depthFor). Each level writes its marks again on
	// every line it holds.
	maxDepth = 8
	// maxInlineDepth bounds emphasis, links and strikethrough inside one
	// another: each level's style is written again before every word.
	maxInlineDepth = 16
	// maxColumns is the widest table rendered.
	maxColumns = 32
	// maxOutput bounds what a render writes (a table of narrow columns
	// writes many lines for little text), checked as it writes.
	maxOutput = 8 << 20
)

// depthFor is the deepest nesting rendered at a wrap width: each level
// takes two columns or more, and a third of the width is left for text.
func depthFor(wrap int) int {
	return min(maxDepth, max(1, (wrap-4)/3))
}

// scanDepth estimates how deeply the Markdown in src nests block quotes and
// list items, without parsing it: on each line, the markers before the text
// (`>`, `-`, `*`, `+`, `1.`, `1)`) and half the indentation not taken by
// the space after a marker, as a nested list item is indented at least two
// columns more than its parent. It can count too many (a thematic break, a
// deeply indented code line), never too few, and costs one pass over the
// bytes.
func scanDepth(src string) int {
	deepest := 0
	for line := range strings.Lines(src) {
		markers, col := 0, 0
	prefix:
		for i := 0; i < len(line); i++ {
			switch c := line[i]; {
			case c == ' ':
				col++
			case c == '\t':
				col += 4 - col%4
			case c == '>':
				markers++
				i = afterMarker(line, i+1)
			case c == '-' || c == '*' || c == '+':
				if !endsMarker(line, i+1) {
					break prefix
				}
				markers++
				i = afterMarker(line, i+1)
			case c >= '0' && c <= '9':
				j := i
				for j < len(line) && j-i < 10 && line[j] >= '0' && line[j] <= '9' {
					j++
				}
				if j == len(line) || (line[j] != '.' && line[j] != ')') || !endsMarker(line, j+1) {
					break prefix
				}
				markers++
				i = afterMarker(line, j+1)
			default:
				break prefix
			}
		}
		deepest = max(deepest, markers+col/2)
	}
	return deepest
}

// afterMarker skips the one space that belongs to a marker ending before
// line[i]; it returns the index of the last byte of the marker.
func afterMarker(line string, i int) int {
	if i < len(line) && line[i] == ' ' {
		return i
	}
	return i - 1
}

// endsMarker reports whether a list marker ending before line[i] is one:
// followed by a space, a tab or the end of the line.
func endsMarker(line string, i int) bool {
	return i >= len(line) || line[i] == ' ' || line[i] == '\t' || line[i] == '\n' || line[i] == '\r'
}

// measure walks a parsed readme and returns why it is not to be rendered,
// "" when it may be. wrap is the width text is wrapped to. It walks inlines
// only as deep as maxInlineDepth: emphasis can nest thousands deep.
func measure(doc ast.Node, wrap int) string {
	var depth, inline, deepest, deepestInline, cols, indent, widest int
	var indents []int // what each block entered takes of the width
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if n.Type() == ast.TypeInline {
			if !n.HasChildren() {
				return ast.WalkContinue, nil
			}
			if !entering {
				inline--
				return ast.WalkContinue, nil
			}
			inline++
			if deepestInline = max(deepestInline, inline); inline > maxInlineDepth {
				return ast.WalkStop, nil
			}
			return ast.WalkContinue, nil
		}
		if w := indentOf(n); w > 0 {
			if entering {
				indents = append(indents, w)
				indent += w
				widest = max(widest, indent)
			} else {
				indent -= indents[len(indents)-1]
				indents = indents[:len(indents)-1]
			}
		}
		switch n.Kind() {
		case ast.KindBlockquote, ast.KindList, east.KindDefinitionList:
			if entering {
				// Walked whole: scanDepth bounded it.
				depth++
				deepest = max(deepest, depth)
			} else {
				depth--
			}
		case east.KindTable:
			if t := n.(*east.Table); entering {
				cols = max(cols, len(t.Alignments))
				if cols > maxColumns {
					return ast.WalkStop, nil
				}
			}
		}
		return ast.WalkContinue, nil
	})
	allowed := depthFor(wrap)
	switch {
	case deepest > allowed:
		return nested(deepest, allowed)
	case widest > wrap-minText:
		// Long numbers on lists in lists: the marks leave no room.
		return nested(deepest, min(deepest-1, allowed))
	case deepestInline > maxInlineDepth:
		// The walk stopped there: how much deeper it goes is not known.
		return fmt.Sprintf("emphasis and links nested over %d deep, more than canopy renders", maxInlineDepth)
	case cols > maxColumns:
		return fmt.Sprintf("a table %s columns wide, more than canopy renders", tx.Count(cols))
	}
	return ""
}

// minText is the least width nesting must leave for text.
const minText = 12

// indentOf is how many columns a block takes of its contents' width: a
// quote's bar, a list's widest marker, a definition's indentation.
func indentOf(n ast.Node) int {
	switch n := n.(type) {
	case *ast.Blockquote, *east.DefinitionDescription:
		return 2
	case *ast.List:
		if !n.IsOrdered() {
			return 2
		}
		last := n.Start + max(n.ChildCount()-1, 0)
		return len(strconv.Itoa(last)) + 2
	}
	return 0
}

// nested says why a readme nested depth deep is not rendered.
func nested(depth, allowed int) string {
	why := fmt.Sprintf("nested %s deep, more than canopy renders", tx.Count(depth))
	if allowed < maxDepth && depth <= maxDepth {
		why += " at this width"
	}
	return why
}
