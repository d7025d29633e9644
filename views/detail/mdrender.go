package detail

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"

	tx "canopy/text"
	"canopy/theme"
)

// mdRenderer lays a parsed readme out as styled terminal lines. It writes
// each line once, with the marks of the blocks it is in (quote bars, list
// markers, indentation) before it, so its work is in proportion to what
// it writes; it stops at the first block after ctx is done or after
// maxOutput bytes.
type mdRenderer struct {
	ctx      context.Context
	src      []byte
	md       theme.Markdown
	out      strings.Builder
	line     strings.Builder // the line emit writes, before it is trimmed
	prefixes []prefix
	err      error
}

// prefix is what a block writes before each of its lines: first before
// its first line (a list item's marker), rest before the others.
type prefix struct {
	first, rest string
	used        bool
}

// stopped reports whether the render is to stop, saying why in r.err.
func (r *mdRenderer) stopped() bool {
	if r.err == nil {
		if err := r.ctx.Err(); err != nil {
			r.err = err
		}
	}
	return r.err != nil
}

// emit writes a line after the marks of the blocks it is in; spaces that
// end it are dropped.
func (r *mdRenderer) emit(line string) {
	if r.err != nil {
		return
	}
	if r.out.Len() > 0 {
		r.out.WriteByte('\n')
	}
	r.line.Reset()
	for i := range r.prefixes {
		p := &r.prefixes[i]
		if p.used {
			r.line.WriteString(p.rest)
		} else {
			r.line.WriteString(p.first)
			p.used = true
		}
	}
	r.line.WriteString(line)
	r.out.WriteString(strings.TrimRight(r.line.String(), " "))
	if r.out.Len() > maxOutput {
		r.err = fmt.Errorf("over %s rendered, more than canopy renders", tx.Bytes(maxOutput))
	}
}

// blank writes an empty line between blocks: only the marks of the quotes
// it is in, without using up a list item's marker.
func (r *mdRenderer) blank() {
	saved := make([]bool, len(r.prefixes))
	for i := range r.prefixes {
		saved[i] = r.prefixes[i].used
		r.prefixes[i].used = true
	}
	r.emit("")
	for i := range r.prefixes {
		r.prefixes[i].used = saved[i]
	}
}

// within renders body inside a block that writes first and rest before
// its lines.
func (r *mdRenderer) within(first, rest string, body func()) {
	r.prefixes = append(r.prefixes, prefix{first: first, rest: rest})
	body()
	r.prefixes = r.prefixes[:len(r.prefixes)-1]
}

// blocks renders parent's blocks at width, a blank line between two
// unless tight (a tight list's item).
func (r *mdRenderer) blocks(parent ast.Node, width int, tight bool) {
	first := true
	for c := parent.FirstChild(); c != nil && !r.stopped(); c = c.NextSibling() {
		if hiddenBlock(c) {
			continue
		}
		if !first && !tight && !isDefinition(c) {
			r.blank()
		}
		first = false
		r.block(c, width)
	}
}

// block renders one block at width.
func (r *mdRenderer) block(n ast.Node, width int) {
	md := r.md
	switch n := n.(type) {
	case *ast.Paragraph, *ast.TextBlock:
		r.lines(wrapSpans(r.inlines(n, md.Text.Pre()), width, "", 0))
	case *ast.Heading:
		r.lines(wrapSpans(r.inlines(n, md.Text.Pre()+headingPaint(md, n.Level).Pre()), width, "", 0))
	case *ast.ThematicBreak:
		r.emit(md.Rule.Render(strings.Repeat(md.RuleGlyph, max(width, 1))))
	case *ast.Blockquote:
		bar := md.Quote.Render(md.QuoteBar) + " "
		r.within(bar, bar, func() { r.blocks(n, width-2, false) })
	case *ast.List:
		r.list(n, width)
	case *ast.FencedCodeBlock, *ast.CodeBlock:
		r.code(n, width)
	case *ast.HTMLBlock:
		r.html(n, width)
	case *east.Table:
		r.table(n, width)
	case *east.DefinitionList:
		r.blocks(n, width, false)
	case *east.DefinitionTerm:
		r.lines(wrapSpans(r.inlines(n, md.Text.Pre()+md.Term.Pre()), width, "", 0))
	case *east.DefinitionDescription:
		r.within("  ", "  ", func() { r.blocks(n, width-2, false) })
	default:
		if n.Type() == ast.TypeBlock && n.HasChildren() && n.FirstChild().Type() == ast.TypeBlock {
			r.blocks(n, width, false)
			return
		}
		r.lines(wrapSpans(r.inlines(n, md.Text.Pre()), width, "", 0))
	}
}

// lines emits each of lines.
func (r *mdRenderer) lines(lines []string) {
	for _, l := range lines {
		r.emit(l)
	}
}

// headingPaint is the paint of a heading of level 1 to 6.
func headingPaint(md theme.Markdown, level int) theme.Paint {
	switch level {
	case 1:
		return md.Heading1
	case 2:
		return md.Heading2
	case 3:
		return md.Heading3
	}
	return md.Heading4
}

// list renders a list's items with their markers, the text of each item
// hanging after its marker.
func (r *mdRenderer) list(l *ast.List, width int) {
	markers := make([]string, 0, l.ChildCount())
	number := l.Start
	bullet := r.md.Bullets[min(r.listDepth(l), len(r.md.Bullets)-1)]
	markerW := 0
	for range l.ChildCount() {
		m := bullet
		if l.IsOrdered() {
			m = strconv.Itoa(number) + string(l.Marker)
			number++
		}
		markers = append(markers, m)
		markerW = max(markerW, ansi.StringWidth(m))
	}
	indent := strings.Repeat(" ", markerW+1)
	i := 0
	for item := l.FirstChild(); item != nil && !r.stopped(); item = item.NextSibling() {
		if i > 0 && !l.IsTight {
			r.blank()
		}
		m := markers[i]
		// Numbers align on their right, as 9. and 10. do.
		first := r.md.Marker.Render(strings.Repeat(" ", markerW-ansi.StringWidth(m))+m) + " "
		r.within(first, indent, func() {
			if !showsAnything(item) {
				r.emit("") // the marker alone, as an empty item shows
				return
			}
			r.blocks(item, width-markerW-1, l.IsTight)
		})
		i++
	}
}

// listDepth is how many lists l is in.
func (r *mdRenderer) listDepth(l ast.Node) int {
	depth := 0
	for p := l.Parent(); p != nil; p = p.Parent() {
		if p.Kind() == ast.KindList {
			depth++
		}
	}
	return depth
}

// code renders a code block, indented, highlighted when its language is
// one the highlighter knows; a line too long for the pane goes on on the
// next line after a mark (Continued), so that no code is lost.
func (r *mdRenderer) code(n ast.Node, width int) {
	lang := ""
	if f, ok := n.(*ast.FencedCodeBlock); ok {
		lang = string(f.Language(r.src))
	}
	hl := newHighlighter(lang, r.md)
	cont := r.md.CodeCont.Render(r.md.Continued) + " "
	contW := ansi.StringWidth(r.md.Continued) + 1
	lines := n.Lines()
	r.within("  ", "  ", func() {
		for i := 0; i < lines.Len() && !r.stopped(); i++ {
			seg := lines.At(i)
			line := strings.TrimRight(string(seg.Value(r.src)), "\r\n")
			r.lines(wrapSpans(hl.line(line), width-2, cont, contW))
		}
	})
}

// html renders an HTML block as the text it is.
func (r *mdRenderer) html(n *ast.HTMLBlock, width int) {
	lines := n.Lines()
	for i := 0; i < lines.Len() && !r.stopped(); i++ {
		seg := lines.At(i)
		r.lines(wrapSpans([]span{{strings.TrimRight(string(seg.Value(r.src)), "\r\n"), r.md.HTML.Pre()}}, width, "", 0))
	}
	if n.HasClosure() {
		r.lines(wrapSpans([]span{{strings.TrimRight(string(n.ClosureLine.Value(r.src)), "\r\n"), r.md.HTML.Pre()}}, width, "", 0))
	}
}

// hiddenBlock reports whether n shows nothing, so that no blank line is
// kept for it: an HTML comment (a readme's authors hide notes to
// themselves in them, and a browser shows nothing), or what is left of
// a paragraph of link reference definitions.
func hiddenBlock(n ast.Node) bool {
	switch n := n.(type) {
	case *ast.HTMLBlock:
		return n.HTMLBlockType == ast.HTMLBlockType2
	case *ast.Paragraph, *ast.TextBlock:
		// Link reference definitions alone: the parser keeps an empty
		// block where they were.
		return n.FirstChild() == nil && n.Lines().Len() == 0
	}
	return false
}

// showsAnything reports whether any of n's blocks shows something.
func showsAnything(n ast.Node) bool {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if !hiddenBlock(c) {
			return true
		}
	}
	return false
}

// isDefinition reports whether n is a definition's description, which
// follows its term without a blank line.
func isDefinition(n ast.Node) bool {
	return n.Kind() == east.KindDefinitionDescription
}
