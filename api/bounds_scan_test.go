package api

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// countByteByByte is the value count as the scanner's rules define it, one
// byte at a time: the reference the scanner's skipping must agree with.
func countByteByByte(text string) int {
	n, inString, escaped, opened := 0, false, false, false
	for i := 0; i < len(text); i++ {
		c := text[i]
		if inString {
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
			continue
		}
		if opened && !strings.ContainsRune(" \t\n\r", rune(c)) {
			opened = false
			if c != ']' && c != '}' {
				n++
			}
		}
		switch c {
		case '"':
			inString = true
		case ',':
			n++
		case '[', '{':
			opened = true
		}
	}
	return n
}

// TestValueCountSkipsStringsExactly: counting with strings skipped many bytes
// at a time gives the byte-by-byte count, however the text is cut into reads
// (a quote, a backslash or an escape at either end of a read).
func TestValueCountSkipsStringsExactly(t *testing.T) {
	t.Parallel()
	texts := []string{
		`{"tags":[{"uid":"o/r/t","name":"a,b[c{d"},{"name":"\"quoted, \\ [x]\""}],"n":[1, 2 ,3],"e":[ ],"o":{ }}`,
		`["\\", "\\\"", ",", "[", "{", "\u0022,"]`,
		`[` + strings.Repeat(`"x,y\"z\\",`, 300) + `{}]`,
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, text := range texts {
		want := countByteByByte(text)
		for range 200 {
			var v valueCounter
			for rest := text; rest != ""; {
				k := 1 + rng.IntN(min(len(rest), 17))
				v.scan([]byte(rest[:k]))
				rest = rest[k:]
			}
			if v.n != want {
				t.Fatalf("%.60s…: %d values, want %d", text, v.n, want)
			}
		}
	}
}
