package theme

import "charm.land/lipgloss/v2"

// Markdown is how a readme is drawn: a paint for each construct and the
// glyphs of its frame. The readme renderer (views/detail) nests paints by
// writing their Pre one after another, so each sets attributes of its own
// and none resets another's.
type Markdown struct {
	// Text is a paragraph's; every other text paint is written over it.
	Text Paint
	// Headings by level: 1, 2, 3, and 4 to 6.
	Heading1, Heading2, Heading3, Heading4 Paint
	Emph, Strong, Strike, Code             Paint
	// Link is a link's text, URL the address shown after it, Image an
	// image's alt text and HTML raw HTML shown as the text it is.
	Link, URL, Image, HTML Paint
	// Quote is a block quote's bar, Marker a list item's bullet or
	// number, Rule a thematic break, Term a definition list's term.
	Quote, Marker, Rule, Term Paint
	TableHeader, TableBorder  Paint
	// Code blocks: their text, the highlighter's classes, and the mark
	// that starts the rest of a line too long for the pane.
	CodeBlock, CodeComment, CodeString, CodeNumber, CodeKeyword, CodeCont Paint

	// Bullets are list items' by depth (the last one repeats deeper).
	Bullets []string
	// QuoteBar starts each line of a quote; RuleGlyph is repeated across
	// a thematic break; Checked and Unchecked are task list boxes;
	// Continued starts the rest of a code line wrapped; Arrow leads to an
	// image's address; ColumnRule, HeaderRule and Cross draw tables;
	// Ellipsis marks table columns cut.
	QuoteBar, RuleGlyph, Checked, Unchecked, Continued, Arrow string
	ColumnRule, HeaderRule, Cross, Ellipsis                   string
}

// markdownGlyphs are the glyphs of a readme, Unicode or, for a terminal
// that cannot show it, ASCII.
func markdownGlyphs(m *Markdown, ascii bool, g Glyphs) {
	m.Bullets = []string{"•", "◦", "▪"}
	m.QuoteBar, m.RuleGlyph, m.Checked, m.Unchecked, m.Continued, m.Arrow = "│", "─", "☑", "☐", "↪", "→"
	m.ColumnRule, m.HeaderRule, m.Cross = "│", "─", "┼"
	if ascii {
		m.Bullets = []string{"*", "-", "+"}
		m.QuoteBar, m.RuleGlyph, m.Checked, m.Unchecked, m.Continued, m.Arrow = "|", "-", "[x]", "[ ]", ">", "->"
		m.ColumnRule, m.HeaderRule, m.Cross = "|", "-", "+"
	}
	m.Ellipsis = g.Ellipsis
}

// markdown is the readme's look in colour.
func (t *Theme) markdown() Markdown {
	p, s := t.Palette, lipgloss.NewStyle
	m := Markdown{
		Text:     PaintOf(s().Foreground(p.Fg)),
		Heading1: PaintOf(s().Foreground(p.Accent).Bold(true).Underline(true)),
		Heading2: PaintOf(s().Foreground(p.Accent).Bold(true)),
		Heading3: PaintOf(s().Foreground(p.Accent2).Bold(true)),
		Heading4: PaintOf(s().Foreground(p.Accent2).Italic(true)), // apart from a term (bold)
		Emph:     PaintOf(s().Italic(true)),
		Strong:   PaintOf(s().Bold(true)),
		Strike:   PaintOf(s().Strikethrough(true)),
		Code:     PaintOf(s().Foreground(p.Accent2)),
		Link:     PaintOf(s().Foreground(p.Accent).Underline(true)),
		URL:      PaintOf(s().Foreground(p.Muted)),
		Image:    PaintOf(s().Foreground(p.Info)),
		HTML:     PaintOf(s().Foreground(p.Muted)),
		Quote:    PaintOf(s().Foreground(p.Faint)),
		Marker:   PaintOf(s().Foreground(p.Accent)),
		Rule:     PaintOf(s().Foreground(p.Border)),
		Term:     PaintOf(s().Bold(true)),

		TableHeader: PaintOf(s().Bold(true)),
		TableBorder: PaintOf(s().Foreground(p.Border)),

		CodeBlock:   PaintOf(s().Foreground(p.Fg)),
		CodeComment: PaintOf(s().Foreground(p.Muted).Italic(true)),
		CodeString:  PaintOf(s().Foreground(p.Good)),
		CodeNumber:  PaintOf(s().Foreground(p.Warn)),
		CodeKeyword: PaintOf(s().Foreground(p.Accent2).Bold(true)),
		CodeCont:    PaintOf(s().Foreground(p.Faint)),
	}
	markdownGlyphs(&m, t.ASCII, t.Glyphs)
	return m
}

// markdownMono is the readme's look without colour: levels and constructs
// told apart by attributes.
func (t *Theme) markdownMono() Markdown {
	s := lipgloss.NewStyle
	m := Markdown{
		Heading1: PaintOf(s().Bold(true).Underline(true)),
		Heading2: PaintOf(s().Bold(true)),
		Heading3: PaintOf(s().Bold(true).Italic(true)),
		Heading4: PaintOf(s().Underline(true)),
		Emph:     PaintOf(s().Italic(true)),
		Strong:   PaintOf(s().Bold(true)),
		Strike:   PaintOf(s().Strikethrough(true)),
		Code:     PaintOf(s().Faint(true)),
		Link:     PaintOf(s().Underline(true)),
		Quote:    PaintOf(s().Faint(true)),
		Term:     PaintOf(s().Bold(true)),

		TableHeader: PaintOf(s().Bold(true)),

		CodeComment: PaintOf(s().Faint(true)),
		CodeKeyword: PaintOf(s().Bold(true)),
		CodeCont:    PaintOf(s().Faint(true)),
	}
	markdownGlyphs(&m, t.ASCII, t.Glyphs)
	return m
}
