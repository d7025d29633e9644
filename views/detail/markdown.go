package detail

import (
	"fmt"
	"regexp"
	"strings"

	"charm.land/glamour/v2"

	"canopy/views/safe"
)

// osc8 matches an OSC 8 hyperlink sequence. Links from a readme are shown
// as text, never as terminal hyperlinks: a link's visible text could
// otherwise point somewhere else than it says.
var osc8 = regexp.MustCompile("\x1b\\]8;[^\x07\x1b]*(?:\x07|\x1b\\\\)")

// RenderMarkdown renders a readme for the terminal at width: the server's
// text is made safe first (escape sequences shown, not run), then glamour
// draws it with the theme's style. It is slow enough (a few ms) that it runs
// in a command, never in View.
func RenderMarkdown(content, style string, width int) (string, error) {
	r, err := glamour.NewTermRenderer(glamour.WithStandardStyle(style), glamour.WithWordWrap(max(width-2, 20)))
	if err != nil {
		return "", fmt.Errorf("markdown renderer: %w", err)
	}
	out, err := r.Render(safe.Text(content))
	if err != nil {
		return "", fmt.Errorf("render readme: %w", err)
	}
	out = osc8.ReplaceAllString(out, "")
	return strings.Trim(out, "\n"), nil
}
