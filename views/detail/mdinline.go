package detail

import (
	"canopy/lazyregexp"
	"html"
	"strings"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/util"
)

// charRefAt matches a character reference at the start of a text only:
// finding none costs a few bytes, not the rest of the text.
var charRefAt = lazyregexp.New("^" + charRef.String())

// inlines are the spans of n's inline children, in style and the styles
// they nest. Links are shown as their text and then their address (never
// as a terminal hyperlink, whose text could say one place and go to
// another); a link whose text is its address shows it once.
func (r *mdRenderer) inlines(n ast.Node, style string) []span {
	var spans []span
	r.appendInlines(&spans, n, style)
	return spans
}

func (r *mdRenderer) appendInlines(spans *[]span, n ast.Node, style string) {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		r.appendInline(spans, c, style)
	}
}

func (r *mdRenderer) appendInline(spans *[]span, n ast.Node, style string) {
	md := r.md
	add := func(text, style string) {
		if text != "" {
			*spans = append(*spans, span{text, style})
		}
	}
	switch n := n.(type) {
	case *ast.Text:
		if n.IsRaw() {
			add(string(n.Segment.Value(r.src)), style)
		} else {
			add(unescape(n.Segment.Value(r.src)), style)
		}
		switch {
		case n.HardLineBreak():
			add("\n", "")
		case n.SoftLineBreak():
			add(" ", style)
		}
	case *ast.String:
		if n.IsCode() || n.IsRaw() {
			add(string(n.Value), style)
		} else {
			add(unescape(n.Value), style)
		}
	case *ast.CodeSpan:
		var b strings.Builder
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			switch c := c.(type) {
			case *ast.Text:
				b.Write(c.Segment.Value(r.src))
				if c.SoftLineBreak() || c.HardLineBreak() {
					b.WriteByte(' ')
				}
			case *ast.String:
				b.Write(c.Value)
			}
		}
		add(b.String(), style+md.Code.Pre())
	case *ast.Emphasis:
		paint := md.Emph
		if n.Level >= 2 {
			paint = md.Strong
		}
		r.appendInlines(spans, n, style+paint.Pre())
	case *east.Strikethrough:
		r.appendInlines(spans, n, style+md.Strike.Pre())
	case *ast.Link:
		before := len(*spans)
		r.appendInlines(spans, n, style+md.Link.Pre())
		dest := unescape(n.Destination)
		if text := spansText((*spans)[before:]); dest != "" && text != dest && "mailto:"+text != dest {
			add(" (", style)
			add(dest, style+md.URL.Pre())
			add(")", style)
		}
	case *ast.AutoLink:
		add(string(n.Label(r.src)), style+md.Link.Pre())
	case *ast.Image:
		var alt []span
		r.appendInlines(&alt, n, "")
		text := spansText(alt)
		if text == "" {
			text = "image"
		}
		add(text, style+md.Image.Pre())
		if dest := unescape(n.Destination); dest != "" {
			add(" "+md.Arrow+" ", style)
			add(dest, style+md.URL.Pre())
		}
	case *ast.RawHTML:
		var b strings.Builder
		for i := range n.Segments.Len() {
			seg := n.Segments.At(i)
			b.Write(seg.Value(r.src))
		}
		raw := b.String()
		if strings.HasPrefix(raw, "<!--") {
			return // a comment: a browser shows nothing
		}
		add(strings.ReplaceAll(raw, "\n", " "), style+md.HTML.Pre())
	case *east.TaskCheckBox:
		box := md.Unchecked
		if n.IsChecked {
			box = md.Checked
		}
		add(box, style+md.Marker.Pre())
		add(" ", style)
	default:
		r.appendInlines(spans, n, style)
	}
}

// spansText is the text of spans, hard breaks as spaces.
func spansText(spans []span) string {
	var b strings.Builder
	for _, s := range spans {
		if s.text == "\n" {
			b.WriteByte(' ')
			continue
		}
		b.WriteString(s.text)
	}
	return b.String()
}

// unescape is Markdown text as it reads: backslash escapes of punctuation
// dropped and character references decoded, in one pass as CommonMark
// does, so that \&amp; stays "&amp;". The references that would decode to
// something unsafe to print were made markers before parsing
// (defuseCharRefs).
func unescape(v []byte) string {
	if !strings.ContainsAny(string(v), `\&`) {
		return string(v)
	}
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c == '\\' && i+1 < len(v) && util.IsPunct(v[i+1]):
			b.WriteByte(v[i+1])
			i++
		case c == '&':
			if loc := charRefAt.FindIndex(v[i:]); loc != nil {
				b.WriteString(html.UnescapeString(string(v[i : i+loc[1]])))
				i += loc[1] - 1
				continue
			}
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}
