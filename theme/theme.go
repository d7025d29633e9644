// Package theme holds every color and style canopy draws with. Views never
// name a color: they take a *Theme (or the part of it they need) and use its
// semantic styles, so palettes, NO_COLOR and user colors change in one place.
package theme

import (
	"image/color"
	"strings"

	"charm.land/lipgloss/v2"
)

// Names of the built-in palettes.
const (
	Auto         = "auto" // dark or light, following the terminal's background
	Dark         = "dark"
	Light        = "light"
	HighContrast = "high-contrast"
	Mono         = "mono" // no color at all: attributes only
)

// Names lists the palettes Options.Name accepts.
func Names() []string { return []string{Auto, Dark, Light, HighContrast, Mono} }

// Palette is the handful of colors a theme is built from.
type Palette struct {
	Fg, Muted, Faint      color.Color
	Accent, Accent2       color.Color
	Good, Warn, Bad, Info color.Color
	SelFg, SelBg          color.Color
	Border                color.Color
}

// Options choose a theme.
type Options struct {
	Name    string // one of Names; "" means Auto
	Dark    bool   // the terminal's background is dark (for Auto)
	NoColor bool   // NO_COLOR or TERM=dumb: attributes only, whatever Name says
	Icons   bool   // use Unicode icons instead of the ASCII-safe glyphs
	// ASCII: the terminal cannot show Unicode (its locale is not UTF-8), so
	// every glyph, separator, arrow, ellipsis and border is ASCII; Icons is
	// ignored.
	ASCII bool
	// Colors replace palette colors by role (see ColorRoles), as #rrggbb
	// or an ANSI number 0-255; ignored without color.
	Colors map[string]string
}

// Glyphs are the symbols drawn beside rows, and the punctuation of the
// frame. The default set draws rows in ASCII so that every font shows it;
// its punctuation is Unicode (one cell each), unless the terminal cannot
// show Unicode at all (PlainGlyphs).
type Glyphs struct {
	Expanded, Collapsed, Leaf string
	Loading, Failed, More     string
	// Fewer folds back what More showed.
	Fewer             string
	Mark, Deprecated  string
	SortAsc, SortDesc string
	Ellipsis          string
	Spinner           []string
	// Rule divides panes; Dot separates parts of a status line; the arrows
	// label arrow keys. Each is one cell wide.
	Rule, Dot             string
	Left, Right, Up, Down string
	// Half is "half" in footer words ("½ down").
	Half string
	// Bar fills a bar of a chart, BarRest the rest of its room; Spark are
	// a sparkline's levels, lowest first.
	Bar, BarRest string
	Spark        []string
}

// ASCIIGlyphs is the default glyph set.
func ASCIIGlyphs() Glyphs {
	g := Glyphs{Expanded: "v", Collapsed: ">", Leaf: " ", Loading: "...", Failed: "!", More: "+", Fewer: "-",
		Mark: "*", Deprecated: "!", SortAsc: "^", SortDesc: "v", Ellipsis: "~",
		Spinner: []string{"|", "/", "-", "\\"}}
	unicodePunct(&g)
	return g
}

// PlainGlyphs is ASCIIGlyphs with ASCII punctuation too, for a terminal
// whose locale is not UTF-8.
func PlainGlyphs() Glyphs {
	g := ASCIIGlyphs()
	g.Rule, g.Dot, g.Left, g.Right, g.Up, g.Down, g.Half, g.Ellipsis = "|", "-", "<", ">", "^", "v", "1/2", "~"
	g.Bar, g.BarRest = "#", "."
	g.Spark = []string{"_", ".", "-", ":", "=", "+", "*", "#"}
	return g
}

// IconGlyphs is the opt-in Unicode set.
func IconGlyphs() Glyphs {
	g := Glyphs{Expanded: "▾", Collapsed: "▸", Leaf: " ", Loading: "…", Failed: "✗", More: "⋯", Fewer: "▴",
		Mark: "●", Deprecated: "⚠", SortAsc: "▲", SortDesc: "▼", Ellipsis: "…",
		Spinner: []string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"}}
	unicodePunct(&g)
	return g
}

func unicodePunct(g *Glyphs) {
	g.Rule, g.Dot, g.Left, g.Right, g.Up, g.Down, g.Half = "│", "·", "←", "→", "↑", "↓", "½"
	// "…" marks a cut everywhere: "~" would read as an identity's pattern.
	g.Ellipsis = "…"
	g.Bar, g.BarRest = "█", "░"
	g.Spark = []string{"▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"}
}

// Theme is every style canopy uses, by meaning.
type Theme struct {
	Name    string
	Dark    bool
	NoColor bool
	ASCII   bool // everything drawn is ASCII (Options.ASCII)
	Palette Palette
	Glyphs  Glyphs

	// Text roles.
	Text, Muted, Accent, Strong lipgloss.Style
	Good, Warn, Bad, Info       lipgloss.Style
	Match                       lipgloss.Style // fuzzy-matched letters

	// Rows of lists, tables and the tree.
	Row, Selected, SelectedBlur, Marked, Dim lipgloss.Style
	// Cell is the cell under a table's cell cursor, in the selected row.
	Cell                           lipgloss.Style
	Deprecated                     lipgloss.Style // deprecated tags
	Badge                          lipgloss.Style // e.g. [deprecated]
	Count                          lipgloss.Style // loaded/total
	TableHeader, TableHeaderSorted lipgloss.Style

	// Frame.
	Header, HeaderTitle, Crumb lipgloss.Style
	PaneTitle, PaneTitleFocus  lipgloss.Style
	Separator                  lipgloss.Style
	StatusBar, StatusKey       lipgloss.Style
	FlashInfo, FlashError      lipgloss.Style
	HintKey, HintDesc, HintOff lipgloss.Style

	// Detail pane.
	Label, Value, Section lipgloss.Style

	// Overlays (help, command line, pickers).
	Overlay, OverlayTitle, Prompt lipgloss.Style

	// Markdown is how readmes are drawn (markdown.go).
	Markdown Markdown
}

func palette(name string, dark bool) Palette {
	c := lipgloss.Color
	switch {
	case name == HighContrast:
		p := Palette{Fg: c("#ffffff"), Muted: c("#d0d0d0"), Faint: c("#a8a8a8"), Accent: c("#5fd7ff"), Accent2: c("#ffd700"),
			Good: c("#5fff5f"), Warn: c("#ffd700"), Bad: c("#ff5f5f"), Info: c("#5fd7ff"),
			SelFg: c("#000000"), SelBg: c("#ffd700"), Border: c("#ffffff")}
		if !dark {
			p = Palette{Fg: c("#000000"), Muted: c("#262626"), Faint: c("#4e4e4e"), Accent: c("#0000d7"), Accent2: c("#870087"),
				Good: c("#005f00"), Warn: c("#875f00"), Bad: c("#af0000"), Info: c("#0000d7"),
				SelFg: c("#ffffff"), SelBg: c("#0000af"), Border: c("#000000")}
		}
		return p
	case name == Light || (name == Auto && !dark):
		return Palette{Fg: c("#303030"), Muted: c("#6c6c6c"), Faint: c("#9e9e9e"), Accent: c("#005fd7"), Accent2: c("#8700af"),
			Good: c("#008700"), Warn: c("#af5f00"), Bad: c("#d70000"), Info: c("#005f87"),
			SelFg: c("#000000"), SelBg: c("#d7e3ff"), Border: c("#bcbcbc")}
	default:
		return Palette{Fg: c("#d0d0d0"), Muted: c("#8a8a8a"), Faint: c("#626262"), Accent: c("#5fafff"), Accent2: c("#d787ff"),
			Good: c("#87d787"), Warn: c("#ffaf5f"), Bad: c("#ff6b6b"), Info: c("#5fd7d7"),
			SelFg: c("#ffffff"), SelBg: c("#3a3f5a"), Border: c("#4e4e4e")}
	}
}

// New builds a theme. With NoColor (or Name Mono) no style sets a color:
// selection is reverse video, errors and deprecated rows are told apart by
// bold, underline, strikethrough and text badges.
func New(opts Options) *Theme {
	name := opts.Name
	if name == "" {
		name = Auto
	}
	noColor := opts.NoColor || name == Mono
	dark := opts.Dark
	switch name {
	case Dark:
		dark = true
	case Light:
		dark = false
	}
	t := &Theme{Name: name, Dark: dark, NoColor: noColor, ASCII: opts.ASCII, Glyphs: ASCIIGlyphs()}
	switch {
	case opts.ASCII:
		t.Glyphs = PlainGlyphs()
	case opts.Icons:
		t.Glyphs = IconGlyphs()
	}
	if noColor {
		t.buildMono()
		t.asciiBorders()
		return t
	}
	t.Palette = palette(name, dark)
	for role, c := range opts.Colors {
		if p := t.Palette.role(role); p != nil && CheckColor(c) == nil {
			*p = lipgloss.Color(c)
		}
	}
	t.build()
	t.asciiBorders()
	return t
}

// asciiBorders draws overlay borders with + - | when the terminal cannot
// show box drawing characters.
func (t *Theme) asciiBorders() {
	if t.ASCII {
		t.Overlay = t.Overlay.Border(lipgloss.ASCIIBorder())
	}
}

func (t *Theme) build() {
	p := t.Palette
	s := lipgloss.NewStyle
	t.Text = s().Foreground(p.Fg)
	t.Muted = s().Foreground(p.Muted)
	t.Accent = s().Foreground(p.Accent)
	t.Strong = s().Foreground(p.Fg).Bold(true)
	t.Good = s().Foreground(p.Good)
	t.Warn = s().Foreground(p.Warn)
	t.Bad = s().Foreground(p.Bad).Bold(true)
	t.Info = s().Foreground(p.Info)
	t.Match = s().Foreground(p.Accent2).Bold(true).Underline(true)

	t.Row = s().Foreground(p.Fg)
	t.Selected = s().Foreground(p.SelFg).Background(p.SelBg).Bold(true)
	t.Cell = s().Foreground(p.SelBg).Background(p.SelFg).Bold(true).Underline(true)
	t.SelectedBlur = s().Foreground(p.Fg).Background(p.Border)
	t.Marked = s().Foreground(p.Accent2).Bold(true)
	t.Dim = s().Foreground(p.Faint)
	t.Deprecated = s().Foreground(p.Warn).Faint(true).Strikethrough(true)
	t.Badge = s().Foreground(p.Warn).Bold(true)
	t.Count = s().Foreground(p.Muted)
	t.TableHeader = s().Foreground(p.Muted).Bold(true)
	t.TableHeaderSorted = s().Foreground(p.Accent).Bold(true)

	t.Header = s().Foreground(p.Muted)
	t.HeaderTitle = s().Foreground(p.Accent).Bold(true)
	t.Crumb = s().Foreground(p.Fg).Bold(true)
	t.PaneTitle = s().Foreground(p.Muted).Bold(true)
	t.PaneTitleFocus = s().Foreground(p.Accent).Bold(true)
	t.Separator = s().Foreground(p.Border)
	t.StatusBar = s().Foreground(p.Muted)
	t.StatusKey = s().Foreground(p.Fg).Bold(true)
	t.FlashInfo = s().Foreground(p.Good)
	t.FlashError = s().Foreground(p.Bad).Bold(true)
	t.HintKey = s().Foreground(p.Accent).Bold(true)
	t.HintDesc = s().Foreground(p.Muted)
	t.HintOff = s().Foreground(p.Faint).Strikethrough(true)

	t.Label = s().Foreground(p.Muted)
	t.Value = s().Foreground(p.Fg)
	t.Section = s().Foreground(p.Accent).Bold(true)

	t.Overlay = s().Foreground(p.Fg).Border(lipgloss.RoundedBorder()).BorderForeground(p.Accent).Padding(0, 1)
	t.OverlayTitle = s().Foreground(p.Accent).Bold(true)
	t.Prompt = s().Foreground(p.Accent).Bold(true)
	t.Markdown = t.markdown()
}

// buildMono styles with attributes only, so the UI stays readable (and the
// selection visible) without any color.
func (t *Theme) buildMono() {
	s := lipgloss.NewStyle
	plain := s()
	t.Text, t.Muted, t.Accent, t.Info, t.Good = plain, plain, plain, plain, plain
	t.Strong = s().Bold(true)
	t.Warn = s().Bold(true)
	t.Bad = s().Bold(true).Underline(true)
	t.Match = s().Underline(true)

	t.Row = plain
	t.Selected = s().Reverse(true)
	t.Cell = s().Bold(true).Underline(true)
	t.SelectedBlur = s().Underline(true)
	t.Marked = s().Bold(true)
	t.Dim = s().Faint(true)
	t.Deprecated = s().Strikethrough(true)
	t.Badge = s().Bold(true)
	t.Count = plain
	t.TableHeader = s().Bold(true)
	t.TableHeaderSorted = s().Bold(true).Underline(true)

	t.Header = plain
	t.HeaderTitle = s().Bold(true)
	t.Crumb = s().Bold(true)
	t.PaneTitle = plain
	t.PaneTitleFocus = s().Bold(true).Underline(true)
	t.Separator = plain
	t.StatusBar = plain
	t.StatusKey = s().Bold(true)
	t.FlashInfo = plain
	t.FlashError = s().Bold(true).Underline(true)
	t.HintKey = s().Bold(true)
	t.HintDesc = plain
	t.HintOff = s().Faint(true)

	t.Label = plain
	t.Value = plain
	t.Section = s().Bold(true).Underline(true)

	t.Overlay = s().Border(lipgloss.NormalBorder()).Padding(0, 1)
	t.OverlayTitle = s().Bold(true)
	t.Prompt = s().Bold(true)
	t.Markdown = t.markdownMono()
}

// Paint is a style reduced to the escape sequences before and after its
// text. Rendering with it costs a concatenation: for rows already fitted to
// their width on hot paths, where lipgloss would measure the text again and
// (with strikethrough) style it one character at a time.
type Paint struct{ pre, post string }

// PaintOf reduces a style without padding, margins or borders to a Paint.
func PaintOf(s lipgloss.Style) Paint {
	out := s.Render("x")
	i := strings.IndexByte(out, 'x')
	if i < 0 {
		return Paint{}
	}
	return Paint{pre: out[:i], post: out[i+1:]}
}

// Pre is the escape sequence that starts the paint: written after an inner
// style's reset, it resumes this one.
func (p Paint) Pre() string { return p.pre }

// Render wraps text (which must not reset styles itself) in the paint.
func (p Paint) Render(text string) string {
	if p.pre == "" && p.post == "" {
		return text
	}
	return p.pre + text + p.post
}
