package detail

import (
	"context"
	"errors"
	"fmt"
	"html"
	"strings"
	"time"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"

	"canopy/lazyregexp"
	"canopy/safe"
	tx "canopy/text"
	"canopy/theme"
)

// DefaultRenderBudget is a render's budget when its caller gives none
// (Fetch.ReadmeBudget): the last guard on a render, stopped at its next
// block after it and the readme shown as plain text. The limits in
// mdlimits.go are what keep a render short and small; this only catches
// what they misjudge.
const DefaultRenderBudget = 5 * time.Second

// charRef matches an HTML character reference, which Markdown decodes:
// &#27; &#x1b; &ZeroWidthSpace;.
var charRef = lazyregexp.New(`&(?:#[xX][0-9a-fA-F]{1,8}|#[0-9]{1,8}|[A-Za-z][A-Za-z0-9]{1,31});`)

// Readme is a readme laid out for the pane: rendered Markdown, or the
// plain text (made safe, wrapped) with a note saying why.
type Readme struct {
	Text string
	Note string // "shown as plain text: …"; empty when rendered
}

// RenderMarkdown renders a readme for the terminal at width in md's look,
// or lays it out as plain text when rendering it would cost more than
// canopy allows (mdlimits.go), takes longer than budget
// (DefaultRenderBudget when zero), or fails. It returns an empty Readme
// once ctx is cancelled (the cursor left the repo): the render stops at
// its next block, and does nothing when ctx already is.
//
// The server's text is made safe three times over: before parsing, raw
// controls become markers (safe.Text) and so do character references that
// would decode to one (&#x1b; becomes ␛, not ESC); after rendering, only
// the theme's SGR styling is kept and every text run is checked again
// (safe.Styled), so nothing the readme holds can reach the terminal as a
// control sequence. It takes milliseconds, in a command, never in View.
func RenderMarkdown(ctx context.Context, content string, md theme.Markdown, width int, budget time.Duration) Readme {
	if ctx.Err() != nil {
		return Readme{} // the cursor left before it began
	}
	budget = budgetOr(budget)
	wrap := max(width-2, 20)
	if len(content) > maxRenderBytes {
		return plain(content, width, fmt.Sprintf("%s, more than canopy renders", tx.Bytes(int64(len(content)))))
	}
	// Markers are longer than what they replace: the size is checked again.
	source := defuseCharRefs(safe.Lines(content))
	if len(source) > maxRenderBytes {
		return plain(content, width, fmt.Sprintf("%s made safe, more than canopy renders", tx.Bytes(int64(len(source)))))
	}
	if d := scanDepth(source); d > maxScanDepth {
		return plain(content, width, nested(d, maxDepth))
	}
	ctx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()
	out, err := renderChecked(ctx, source, md, wrap)
	switch {
	case errors.Is(ctx.Err(), context.Canceled):
		return Readme{}
	case pastDeadline(ctx):
		// Late, even if the deadline's timer has not fired yet (a busy
		// machine runs it late): the budget is the budget.
		return plain(content, width, tookOver(budget))
	case err != nil:
		return plain(content, width, err.Error())
	}
	return Readme{Text: out}
}

// budgetOr is budget, or DefaultRenderBudget when it is zero (or less).
func budgetOr(budget time.Duration) time.Duration {
	if budget <= 0 {
		return DefaultRenderBudget
	}
	return budget
}

// pastDeadline reports whether ctx's deadline has passed, by the clock.
func pastDeadline(ctx context.Context) bool {
	d, ok := ctx.Deadline()
	return ctx.Err() != nil || ok && !time.Now().Before(d)
}

// tookOver is the note of a render that took longer than budget.
func tookOver(budget time.Duration) string {
	return fmt.Sprintf("rendering took over %s", budget)
}

// newReadmeParser parses Markdown as GitHub does (tables, strikethrough,
// task lists, bare links), with definition lists.
func newReadmeParser() parser.Parser {
	return goldmark.New(goldmark.WithExtensions(extension.GFM, extension.DefinitionList)).Parser()
}

// renderChecked parses source, measures it and renders it, or says why
// not; a panic in the renderer is a reason too: the readme is still shown.
func renderChecked(ctx context.Context, source string, md theme.Markdown, wrap int) (out string, err error) {
	defer func() {
		if p := recover(); p != nil {
			out, err = "", fmt.Errorf("the Markdown renderer failed: %v", p)
		}
	}()
	src := []byte(source)
	doc := newReadmeParser().Parse(text.NewReader(src))
	if why := measure(doc, wrap); why != "" {
		return "", errors.New(why)
	}
	r := &mdRenderer{ctx: ctx, src: src, md: md}
	r.within("  ", "  ", func() { r.blocks(doc, wrap, false) })
	if r.err != nil {
		return "", r.err
	}
	return safe.Styled(r.out.String()), nil
}

// plain lays a readme out as plain text at width, made safe, with why it
// is not rendered.
func plain(content string, width int, why string) Readme {
	text := wrapPlain(safe.Lines(strings.TrimRight(content, "\n")), max(width-2, 10), "  ")
	return Readme{Text: text, Note: "shown as plain text: " + safe.String(why)}
}

// wrapPlain wraps text made safe to w columns, each line indented: at
// spaces, and inside a word longer than a line.
func wrapPlain(s string, w int, indent string) string {
	wrapped := tx.Wrap(s, w, "")
	if indent == "" {
		return wrapped
	}
	return indent + strings.ReplaceAll(wrapped, "\n", "\n"+indent)
}

// defuseCharRefs replaces each character reference that decodes to
// something unsafe to print by the visible marker of what it decodes to, so
// Markdown shows `&#x1b;]0;x&#7;` as ␛]0;x␇ instead of decoding an escape
// sequence. Harmless references (&amp; &#169;) are left for Markdown.
func defuseCharRefs(s string) string {
	if !strings.Contains(s, "&") {
		return s
	}
	return charRef.ReplaceAllStringFunc(s, func(ref string) string {
		dec := html.UnescapeString(ref)
		if shown := safe.String(dec); shown != dec {
			return shown
		}
		return ref
	})
}
