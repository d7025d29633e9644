package detail

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"html"
	"regexp"
	"strings"
	"time"

	"charm.land/glamour/v2/ansi"
	"charm.land/glamour/v2/styles"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"

	"canopy/safe"
	tx "canopy/text"
)

// DefaultRenderBudget is a render's budget when its caller gives none
// (Fetch.ReadmeBudget): the last guard on a render, whose result is dropped
// after it and the readme shown as plain text. The limits in mdlimits.go
// are what keep a render short and small; this only catches what they
// misjudge.
const DefaultRenderBudget = 5 * time.Second

// osc8 matches an OSC 8 hyperlink sequence. Links from a readme are shown
// as text, never as terminal hyperlinks: a link's visible text could
// otherwise point somewhere else than it says.
var osc8 = regexp.MustCompile("\x1b\\]8;[^\x07\x1b]*(?:\x07|\x1b\\\\)")

// charRef matches an HTML character reference, which Markdown decodes:
// &#27; &#x1b; &ZeroWidthSpace;.
var charRef = regexp.MustCompile(`&(?:#[xX][0-9a-fA-F]{1,8}|#[0-9]{1,8}|[A-Za-z][A-Za-z0-9]{1,31});`)

// Readme is a readme laid out for the pane: rendered Markdown, or the
// plain text (made safe, wrapped) with a note saying why.
type Readme struct {
	Text string
	Note string // "shown as plain text: …"; empty when rendered
}

// RenderMarkdown renders a readme for the terminal at width, or lays it out
// as plain text when rendering it would cost more than canopy allows
// (mdlimits.go), takes longer than budget (DefaultRenderBudget when zero),
// or fails. It returns an empty Readme once ctx is cancelled (the cursor
// left the repo), and does nothing when it already is.
//
// The server's text is made safe three times over: before glamour, raw
// controls become markers (safe.Text) and so do character references that
// would decode to one (&#x1b; becomes ␛, not ESC); after glamour, only its
// own SGR styling is kept and every text run is checked again (safe.Styled),
// so nothing the renderer decodes or passes through can reach the terminal.
// It takes milliseconds to a second, so it runs in a command, never in View.
func RenderMarkdown(ctx context.Context, content, style string, width int, budget time.Duration) Readme {
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
	opts, ok := renderOptions(style, wrap)
	if !ok {
		return plain(content, width, "no Markdown style "+style)
	}
	ctx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()
	// glamour cannot be stopped while it renders a chunk: a render that
	// outlives its deadline or its repo runs on, using CPU and memory, to
	// the end of its chunk, and only then stops (renderChunks). So no
	// deadline can bound a render: the limits checked first (mdlimits.go)
	// do, by keeping every render and every chunk small. The deadline is
	// the last guard, for what they misjudge: the goroutine lets it drop a
	// result that comes late, and the chunk left running ends soon after.
	done := make(chan Readme, 1)
	go func() {
		out, why := renderBounded(ctx, source, opts, budget)
		if why != "" {
			done <- plain(content, width, why)
			return
		}
		done <- Readme{Text: out}
	}()
	select {
	case r := <-done:
		switch {
		case errors.Is(ctx.Err(), context.Canceled):
			return Readme{}
		case pastDeadline(ctx):
			// Late, even if the deadline's timer has not fired yet (a
			// busy machine runs it late): the budget is the budget.
			return plain(content, width, tookOver(budget))
		}
		return r
	case <-ctx.Done():
		if errors.Is(ctx.Err(), context.Canceled) {
			return Readme{}
		}
		return plain(content, width, tookOver(budget))
	}
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

// renderOptions are glamour's options for a style and wrap width.
func renderOptions(style string, wrap int) (ansi.Options, bool) {
	cfg, ok := styles.DefaultStyles[style]
	if !ok {
		return ansi.Options{}, false
	}
	return ansi.Options{WordWrap: wrap, Styles: *cfg}, true
}

// renderBounded parses source, measures it and renders it, or says why
// not; ctx's deadline is budget's. A panic in the renderer is a reason
// too: the readme is still shown.
func renderBounded(ctx context.Context, source string, opts ansi.Options, budget time.Duration) (out, why string) {
	defer func() {
		if p := recover(); p != nil {
			out, why = "", fmt.Sprintf("the Markdown renderer failed: %v", p)
		}
	}()
	// "text" after the readme is the language plainCode gives code blocks.
	src := append([]byte(source), "text"...)
	md := goldmark.New(goldmark.WithExtensions(extension.GFM, extension.DefinitionList))
	doc := md.Parser().Parse(text.NewReader(src[:len(source)]))
	why, costs := measure(doc, opts.WordWrap)
	if why != "" {
		return "", why
	}
	plainCode(doc, src)
	out, err := renderChunks(ctx, src, doc, costs, opts)
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return "", tookOver(budget)
	case errors.Is(err, context.Canceled):
		return "", "cancelled"
	case err != nil:
		return "", "the Markdown renderer failed: " + err.Error()
	}
	return out, ""
}

// renderChunks renders doc's top-level blocks a chunk at a time (about
// chunkWork each, by costs), so that a cancelled render stops at the
// next chunk instead of running to the end. Chunks are joined by a blank
// line, as glamour separates blocks.
func renderChunks(ctx context.Context, src []byte, doc ast.Node, costs []int, opts ansi.Options) (string, error) {
	r := renderer.NewRenderer(renderer.WithNodeRenderers(util.Prioritized(ansi.NewRenderer(opts), 1000)))
	var out strings.Builder
	var buf bytes.Buffer
	for i := 0; doc.FirstChild() != nil; {
		if err := ctx.Err(); err != nil {
			return "", err
		}
		chunk := ast.NewDocument()
		for work := 0; doc.FirstChild() != nil && (work == 0 || work+cost(costs, i) <= chunkWork); i++ {
			work += cost(costs, i)
			n := doc.FirstChild()
			doc.RemoveChild(doc, n)
			chunk.AppendChild(chunk, n)
		}
		buf.Reset()
		if err := r.Render(&buf, src, chunk); err != nil {
			return "", fmt.Errorf("render readme: %w", err)
		}
		part := tidy(buf.String())
		if part == "" {
			continue
		}
		if out.Len() > 0 {
			out.WriteString("\n\n")
		}
		out.WriteString(part)
		if out.Len() > maxOutput {
			return "", fmt.Errorf("render readme: over %s rendered", tx.Bytes(maxOutput))
		}
	}
	return out.String(), nil
}

// cost is the estimated work of the i-th top-level block.
func cost(costs []int, i int) int {
	if i < len(costs) {
		return costs[i]
	}
	return chunkWork // not measured: a chunk of its own
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
