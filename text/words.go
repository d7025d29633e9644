package text

import "strings"

// And joins words as a sentence does: "a", "a and b", "a, b and c".
func And(words []string) string { return joinLast(words, " and ") }

// Or joins words as a sentence offers a choice: "a, b or c".
func Or(words []string) string { return joinLast(words, " or ") }

func joinLast(words []string, last string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + last + words[len(words)-1]
}
