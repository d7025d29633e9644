package ui

import (
	"fmt"
	"strings"

	"canopy/safe"
)

// A readme's change is shown as the lines it removes and adds, in
// hunks, as a short unified diff: what a reviewer reads before sending.

// lineOp is one line of a diff: kept (' '), removed ('-') or added ('+'),
// and its number in the old text (in the new one, for an added line).
type lineOp struct {
	op   byte
	text string
	at   int
}

// maxDiffCells bounds the table of the line matching (old × new lines
// between the common start and end): past it, the middle is shown as
// removed then added, which is still the change, only less tight.
const maxDiffCells = 4 << 20

// diffLines is the change from old to new, line by line.
func diffLines(old, new string) []lineOp {
	a, b := strings.Split(old, "\n"), strings.Split(new, "\n")
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	var out []lineOp
	for i := range pre {
		out = append(out, lineOp{' ', a[i], i + 1})
	}
	am, bm := a[pre:len(a)-suf], b[pre:len(b)-suf]
	if len(am)*len(bm) > maxDiffCells {
		for i, l := range am {
			out = append(out, lineOp{'-', l, pre + i + 1})
		}
		for i, l := range bm {
			out = append(out, lineOp{'+', l, pre + i + 1})
		}
	} else {
		out = append(out, matched(am, bm, pre)...)
	}
	for i := len(a) - suf; i < len(a); i++ {
		out = append(out, lineOp{' ', a[i], i + 1})
	}
	return out
}

// matched diffs two runs of lines by their longest common subsequence;
// from is the line number before them.
func matched(a, b []string, from int) []lineOp {
	n, m := len(a), len(b)
	// lcs[i][j] is the common length of a[i:] and b[j:].
	lcs := make([][]int32, n+1)
	for i := range lcs {
		lcs[i] = make([]int32, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var out []lineOp
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && a[i] == b[j]:
			out = append(out, lineOp{' ', a[i], from + i + 1})
			i, j = i+1, j+1
		case i < n && (j == m || lcs[i+1][j] >= lcs[i][j+1]):
			// What goes is said before what comes in its place.
			out = append(out, lineOp{'-', a[i], from + i + 1})
			i++
		default:
			out = append(out, lineOp{'+', b[j], from + j + 1})
			j++
		}
	}
	return out
}

// diffCounts are how many lines a diff removes and adds.
func diffCounts(ops []lineOp) (removed, added int) {
	for _, o := range ops {
		switch o.op {
		case '-':
			removed++
		case '+':
			added++
		}
	}
	return removed, added
}

// diffText is a diff as at most max lines: each hunk headed by the line
// it starts at in the old text, with a line of context either side, then
// how many changed lines are not shown. Every line is made safe.
func diffText(ops []lineOp, max int) []safe.Text {
	var out []safe.Text
	hidden := 0
	for i := 0; i < len(ops); i++ {
		if ops[i].op == ' ' {
			continue
		}
		start := i
		for i < len(ops) && ops[i].op != ' ' {
			i++
		}
		first, last := max0(start-1), min(i, len(ops)-1)
		if len(out)+2 > max {
			hidden += i - start
			continue
		}
		out = append(out, safe.Of(fmt.Sprintf("@@ line %d", ops[first].at)))
		for k := first; k <= last; k++ {
			if len(out) >= max {
				if ops[k].op != ' ' {
					hidden++
				}
				continue
			}
			out = append(out, opMark(ops[k].op)+safe.Of(ops[k].text))
		}
	}
	if hidden > 0 {
		out = append(out, safe.Of(fmt.Sprintf("… and %d more changed lines", hidden)))
	}
	return out
}

func max0(i int) int { return max(i, 0) }

// opMark begins a line of a diff by what became of it.
func opMark(op byte) safe.Text {
	switch op {
	case '-':
		return "- "
	case '+':
		return "+ "
	}
	return "  "
}

// onlyFinalNewline reports whether new is old with a line end added or
// taken at its very end: what editors do on their own when they save.
func onlyFinalNewline(old, new string) bool {
	trim := func(s string) string { return strings.TrimSuffix(strings.TrimSuffix(s, "\n"), "\r") }
	return old != new && trim(old) == trim(new)
}
