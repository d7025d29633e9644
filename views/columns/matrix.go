package columns

import (
	"slices"
	"strconv"
	"strings"

	"canopy/census"
	"canopy/safe"
	"canopy/views"
	"canopy/views/table"
)

// Matrix are the columns of an access matrix: who (withIdentity: the
// rows are of several identities), where (withFolder: of several
// folders), one column per capability group ("all" of it, "some", or the
// dot for none), and the flags.
func Matrix(c views.Common, withIdentity, withFolder bool) []table.Column[census.Row] {
	var cols []table.Column[census.Row]
	if withIdentity {
		cols = append(cols, table.Column[census.Row]{Title: "IDENTITY", Flex: 2, Min: 10, Max: 28, Cell: func(r *census.Row) safe.Text {
			if r.Who.Gone {
				return safe.Of(r.Who.Name) + " (gone)"
			}
			return safe.Of(r.Who.Name)
		}})
	}
	if withFolder {
		cols = append(cols, table.Column[census.Row]{Title: "FOLDER", Flex: 1, Min: 10, Max: 28, Search: true,
			Cell: func(r *census.Row) safe.Text { return safe.Of(r.Path) }})
	}
	none := safe.Of(c.Theme.Glyphs.Dot)
	for i, g := range census.Groups() {
		cols = append(cols, table.Column[census.Row]{Title: g.Title, Width: max(len(g.Title), 4), Drop: dropOf(i),
			Cell: func(r *census.Row) safe.Text {
				if i >= len(r.Levels) {
					return none
				}
				switch r.Levels[i] {
				case census.Fully:
					return "all"
				case census.Partly:
					return "some"
				case census.Unknown:
					return "?" // a role of its bindings could not be read
				}
				return none
			}})
	}
	cols = append(cols, table.Column[census.Row]{Title: "FLAGS", Flex: 1, Min: 5, Drop: 1, Search: true, Cell: accessFlags,
		Shorter: func(r *census.Row) []safe.Text {
			if len(r.Flags) == 0 {
				return nil
			}
			return []safe.Text{safe.Of(strconv.Itoa(len(r.Flags)) + " " + c.Theme.Glyphs.Deprecated)}
		}})
	return cols
}

// dropOf drops the groups people ask of least first when the width is
// short (advisories, events, repos), after FOLDER's room is shared.
func dropOf(i int) int {
	return [...]int{0, 0, 0, 4, 0, 0, 3, 2}[min(i, 7)]
}

// accessFlags are a row's flags in a word or two each.
func accessFlags(r *census.Row) safe.Text {
	words := make([]string, 0, len(r.Flags))
	for _, f := range r.Flags {
		if w := census.FlagWord(f.Kind); !slices.Contains(words, w) {
			words = append(words, w)
		}
	}
	return safe.Of(strings.Join(words, ", "))
}
