package safe

// Text is text safe to print in the terminal: made here from what the
// server sent (Of), or canopy's own words (a constant, which Go
// lets stand for a Text). The renderers (table cells, tree rows, detail
// fields, pickers, dialogs) take Text, so a server string cannot reach a
// frame by a forgotten call: it does not compile. Converting a string to
// Text outside this package is refused by a test (see text_test.go).
type Text string

// Of is s made safe for one line (see String).
func Of(s string) Text { return Text(String(s)) }

// Join is texts joined by sep, canopy's own.
func Join(texts []Text, sep Text) Text {
	n := 0
	for _, t := range texts {
		n += len(t) + len(sep)
	}
	b := make([]byte, 0, n)
	for i, t := range texts {
		if i > 0 {
			b = append(b, sep...)
		}
		b = append(b, t...)
	}
	return Text(b)
}
