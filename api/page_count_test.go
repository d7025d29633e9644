package api

import (
	"strings"
	"testing"
)

// TestCountItemsSkipsStrings: commas, brackets and escaped quotes inside
// strings are not items; a cut list is counted as far as it goes.
func TestCountItemsSkipsStrings(t *testing.T) {
	for _, tc := range []struct {
		rest     string
		n        int
		complete bool
	}{
		{`{"a":"x,y]"},{"b":"\"],[\\"},{"c":[1,2,{"d":"}"}]}]`, 2, true},
		{`{"name":"` + strings.Repeat(`,]\"`, 1000) + `"}]`, 0, true},
		{`1,2,3`, 2, false},
		{`"a\\",["b",{"c":"]"}]]`, 1, true},
	} {
		n, complete := countItems(strings.NewReader(tc.rest))
		if n != tc.n || complete != tc.complete {
			t.Errorf("countItems(%.40q) = %d, %v; want %d, %v", tc.rest, n, complete, tc.n, tc.complete)
		}
	}
}
