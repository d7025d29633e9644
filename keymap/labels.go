package keymap

import "strings"

// Labels are how arrow keys and "half" are written in key labels and
// footer words: symbols the theme's glyphs give (theme.Glyphs), ASCII in a
// terminal that cannot show Unicode.
type Labels struct {
	Left, Right, Up, Down, Half string
}

// UnicodeLabels are the labels of a UTF-8 terminal.
func UnicodeLabels() Labels {
	return Labels{Left: "←", Right: "→", Up: "↑", Down: "↓", Half: "½"}
}

func (l *Labels) of(k string) string {
	if l == nil {
		u := UnicodeLabels()
		l = &u
	}
	switch k {
	case "up":
		return l.Up
	case "down":
		return l.Down
	case "left":
		return l.Left
	case "right":
		return l.Right
	}
	return k
}

// SetLabels writes arrow keys and "half" in labels and footer words with
// l (the theme's glyphs): ASCII in a terminal that cannot show Unicode.
func (k *KeyMap) SetLabels(l Labels) {
	for i := range k.defs {
		d := &k.defs[i]
		d.Short = strings.ReplaceAll(d.Short, d.labels.half(), l.Half)
		d.labels = &l
	}
}

func (l *Labels) half() string {
	if l == nil {
		return UnicodeLabels().Half
	}
	return l.Half
}
