package theme

import (
	"canopy/lazyregexp"
	"fmt"
	"image/color"
	"strconv"
)

// ColorRoles names the palette colors a user can set in the config file.
func ColorRoles() []string {
	return []string{"fg", "muted", "faint", "accent", "accent2", "good", "warn", "bad", "info",
		"selection-fg", "selection-bg", "border"}
}

// role is the palette color of a role name, nil for an unknown one.
func (p *Palette) role(name string) *color.Color {
	switch name {
	case "fg":
		return &p.Fg
	case "muted":
		return &p.Muted
	case "faint":
		return &p.Faint
	case "accent":
		return &p.Accent
	case "accent2":
		return &p.Accent2
	case "good":
		return &p.Good
	case "warn":
		return &p.Warn
	case "bad":
		return &p.Bad
	case "info":
		return &p.Info
	case "selection-fg":
		return &p.SelFg
	case "selection-bg":
		return &p.SelBg
	case "border":
		return &p.Border
	}
	return nil
}

var hexColor = lazyregexp.New(`^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$`)

// CheckColor accepts what lipgloss.Color understands without guessing:
// #rgb, #rrggbb, or an ANSI color number 0-255.
func CheckColor(c string) error {
	if hexColor.MatchString(c) {
		return nil
	}
	if n, err := strconv.Atoi(c); err == nil && n >= 0 && n <= 255 {
		return nil
	}
	return fmt.Errorf("color %q: want #rrggbb or a number 0-255", c)
}
