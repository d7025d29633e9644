package detail

import (
	"fmt"
	"strings"

	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"

	tx "canopy/text"
)

// What a readme may cost to render. glamour cannot be interrupted inside a
// block, and some small inputs cost it exponential time and memory: a
// quote or list nested deeper than the width leaves room for (`>` × 100 is
// 102 bytes and grows past 3 GB), emphasis nested thousands deep (quadratic
// memory), thousands of table columns, code blocks whose language chroma
// must guess (tens of ms each). So everything that can grow is measured
// before glamour sees it, and a readme over any limit is shown as plain
// text instead, saying which limit it passed.
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
	// fit a narrow pane (depthFor).
	maxDepth = 8
	// maxInlineDepth bounds emphasis, links and strikethrough inside one
	// another: glamour renders each level's children again.
	maxInlineDepth = 16
	// maxColumns is the widest table rendered.
	maxColumns = 32
	// maxWork bounds glamour's work estimated before rendering: the cells
	// (lines × width) of each block times the levels it is nested in, as
	// each level wraps and pads what it holds again. glamour pads every
	// line to the width with styled spaces, about 14 bytes a cell; at this
	// bound a render takes under a second and 40 MB.
	maxWork = 500_000
	// maxCodeLines is the longest code block rendered: glamour joins its
	// lines one at a time, which costs lines × size.
	maxCodeLines = 1000
	// maxHighlight is the largest code block highlighted; a bigger one,
	// or one in a language chroma does not know (which it would guess by
	// trying every lexer on it), is shown as plain code.
	maxHighlight = 16 << 10
	// chunkWork is about how much is rendered between two checks for
	// cancellation.
	chunkWork = 20_000
	// maxOutput bounds what a render keeps, checked after each chunk, in
	// case the estimate is wrong: far more than maxWork gives.
	maxOutput = 8 << 20
)

// depthFor is the deepest nesting rendered at a wrap width. glamour gives
// each level 2 or 3 columns of indentation; once they use up the width it
// wraps every level's text again at each level above, which grows
// exponentially. A third of the width keeps well clear of that.
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

// measure walks a parsed readme and returns why it is not to be rendered
// ("" when it may be), and the estimated work of each top-level block (see
// maxWork). wrap is glamour's word-wrap width. It walks inlines only as
// deep as maxInlineDepth: emphasis can nest thousands deep.
func measure(doc ast.Node, wrap int) (why string, costs []int) {
	var (
		depth, inline, deepest, deepestInline, cols, code int
		cells, work, before                               int
	)
	allowed := depthFor(wrap)
	avail := func() int { return max(wrap-3*depth, 8) }
	// Each level of nesting wraps and pads what it holds again.
	add := func(c int) { cells, work = cells+c, work+c*(1+depth) }
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if n.Type() == ast.TypeInline {
			if !n.HasChildren() {
				if t, ok := n.(*ast.Text); ok && entering {
					// Text wraps in the width its nesting leaves.
					add(t.Segment.Len() * wrap / avail())
				}
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
		if entering {
			add(lineCost(n) * wrap)
			if n.IsRaw() {
				lines := n.Lines()
				if lines.Len() > maxCodeLines {
					code = lines.Len()
					return ast.WalkStop, nil
				}
				for i := range lines.Len() {
					seg := lines.At(i)
					add(wrap + seg.Len()*wrap/avail())
				}
			}
		}
		if !entering && n.Parent() == doc {
			costs = append(costs, work-before)
			before = work
		}
		return ast.WalkContinue, nil
	})
	switch {
	case deepest > allowed:
		return nested(deepest, allowed), nil
	case deepestInline > maxInlineDepth:
		// The walk stopped there: how much deeper it goes is not known.
		return fmt.Sprintf("emphasis and links nested over %d deep, more than canopy renders", maxInlineDepth), nil
	case code > 0:
		return fmt.Sprintf("a block of %s lines, more than canopy renders", tx.Count(code)), nil
	case cols > maxColumns:
		return fmt.Sprintf("a table %s columns wide, more than canopy renders", tx.Count(cols)), nil
	case work > maxWork:
		return fmt.Sprintf("about %s lines at this width, more than canopy renders", tx.Count(cells/wrap)), nil
	}
	return "", costs
}

// lineCost is about how many lines a block takes besides its text: its
// own and the blank line after it; a list item's are its paragraph's, and
// a table's cells share their row's.
func lineCost(n ast.Node) int {
	switch n.Kind() {
	case ast.KindDocument, ast.KindListItem, east.KindTableCell:
		return 0
	case ast.KindTextBlock, east.KindTableRow, east.KindTableHeader:
		return 1
	}
	return 2
}

// nested says why a readme nested depth deep is not rendered.
func nested(depth, allowed int) string {
	why := fmt.Sprintf("nested %s deep, more than canopy renders", tx.Count(depth))
	if allowed < maxDepth && depth <= maxDepth {
		why += " at this width"
	}
	return why
}

// plainCode makes the code blocks chroma would be slow on plain: those in
// a language it does not know (it would try every lexer on the code, tens
// of ms a block), without one (the same), or too big to highlight. src
// ends with "text" (past what was parsed), which they take as their
// language, chroma's plain-text lexer.
func plainCode(doc ast.Node, src []byte) {
	var blocks []ast.Node
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n.Kind() {
		case ast.KindFencedCodeBlock, ast.KindCodeBlock:
			blocks = append(blocks, n)
			return ast.WalkSkipChildren, nil
		case ast.KindParagraph, ast.KindHeading:
			return ast.WalkSkipChildren, nil // inlines hold no code blocks
		}
		return ast.WalkContinue, nil
	})
	if len(blocks) == 0 {
		return
	}
	known := map[string]bool{}
	for _, name := range lexers.Names(true) {
		known[strings.ToLower(name)] = true
	}
	plain := text.NewSegment(len(src)-len("text"), len(src))
	for _, n := range blocks {
		lang := ""
		if f, ok := n.(*ast.FencedCodeBlock); ok {
			lang = strings.ToLower(string(f.Language(src)))
		}
		lines := n.Lines()
		size := 0
		for i := range lines.Len() {
			seg := lines.At(i)
			size += seg.Len()
		}
		if known[lang] && size <= maxHighlight {
			continue
		}
		code := ast.NewFencedCodeBlock(ast.NewTextSegment(plain))
		code.SetLines(lines)
		n.Parent().ReplaceChild(n.Parent(), n, code)
	}
}
