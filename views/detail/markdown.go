package detail

import (
	"fmt"
	"html"
	"regexp"
	"strings"

	"charm.land/glamour/v2"

	"canopy/views/safe"
)

// osc8 matches an OSC 8 hyperlink sequence. Links from a readme are shown
// as text, never as terminal hyperlinks: a link's visible text could
// otherwise point somewhere else than it says.
var osc8 = regexp.MustCompile("\x1b\\]8;[^\x07\x1b]*(?:\x07|\x1b\\\\)")

// charRef matches an HTML character reference, which Markdown decodes:
// &#27; &#x1b; &ZeroWidthSpace;.
var charRef = regexp.MustCompile(`&(?:#[xX][0-9a-fA-F]{1,8}|#[0-9]{1,8}|[A-Za-z][A-Za-z0-9]{1,31});`)

// RenderMarkdown renders a readme for the terminal at width. The server's
// text is made safe three times over: before glamour, raw controls become
// markers (safe.Text) and so do character references that would decode to
// one (&#x1b; becomes ␛, not ESC); after glamour, only its own SGR styling
// is kept and every text run is checked again (safe.Styled), so nothing the
// renderer decodes or passes through can reach the terminal. It is slow
// enough (a few ms) that it runs in a command, never in View.
func RenderMarkdown(content, style string, width int) (out string, err error) {
	r, err := glamour.NewTermRenderer(glamour.WithStandardStyle(style), glamour.WithWordWrap(max(width-2, 20)))
	if err != nil {
		return "", fmt.Errorf("markdown renderer: %w", err)
	}
	source := defuseCharRefs(safe.Text(content))
	defer func() {
		// A readme the renderer cannot cope with is still shown, as text.
		if p := recover(); p != nil {
			out, err = strings.Trim(source, "\n"), nil
		}
	}()
	out, err = r.Render(source)
	if err != nil {
		return "", fmt.Errorf("render readme: %w", err)
	}
	out = osc8.ReplaceAllString(out, "")
	return strings.Trim(safe.Styled(out), "\n"), nil
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
