package detail

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"runtime/metrics"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The bounds a readme render must keep, whatever the readme: the heap's.
// How long a render takes depends on the machine, and is only logged.
const (
	heapBound = 64 << 20 // bytes of heap above what was in use before
	// runaway is the heap at which the child gives up at once: the
	// renders this guards against grew past 3 GB in a minute.
	runaway = 512 << 20
)

// boundedReadmes are within every limit and among the costliest to
// render: they are rendered, not shown as plain text.
var boundedReadmes = []struct {
	name, readme string
	width        int
}{
	{"headings", strings.Repeat("# x\n", 3000), 60},
	{"code blocks without a language", strings.Repeat("```\nx\n```\n\n", 300), 80},
	{"list items", strings.Repeat("- x\n", 3000), 60},
	{"a long quote", strings.Repeat("> x\n>\n", 1500), 60},
	{"nested 8 deep", strings.Repeat("> > > > - - - - x\n", 30), 100},
	{"a wide table", "|" + strings.Repeat(" a |", 32) + "\n|" + strings.Repeat("-|", 32) + "\n" + strings.Repeat("|"+strings.Repeat(" b |", 32)+"\n", 300), 40},
	{"a long code block", "```go\n" + strings.Repeat("x := f(\"s\", 1) // c\n", 3000) + "```\n", 80},
	{"narrow columns of long cells", "| a | b | c |\n|---|---|---|\n" + strings.Repeat("| "+strings.Repeat("word ", 400)+"| x | "+strings.Repeat("y ", 400)+"|\n", 20), 60},
}

// boundJob is one render the child measures, and the note it must have.
type boundJob struct {
	name, readme string
	width        int
	note         string
}

// boundGroups are the children's renders: every blow-up in one child (each
// takes milliseconds), each costly readme in a child of its own, so that
// the children run side by side.
func boundGroups() [][]boundJob {
	var blown []boundJob
	for _, c := range blowUps {
		blown = append(blown, boundJob{"blow-up " + c.name, c.readme, 80, "shown as plain text: " + c.note + ", more than canopy renders"})
	}
	groups := [][]boundJob{blown}
	for _, c := range boundedReadmes {
		groups = append(groups, []boundJob{{"bounded " + c.name, c.readme, c.width, ""}})
	}
	return groups
}

// boundChildEnv names the group of renders a child process makes.
const boundChildEnv = "CANOPY_MD_BOUND_CHILD"

// TestRenderMarkdownStaysBounded renders each readme that blew glamour up
// (which rendered readmes before), and each costly one within the limits, in child processes (so that
// a runaway render is killed, not left running) that measure the heap
// while each render runs: each stays under heapBound. The children also
// check that each blow-up is stopped by its limit, before it is rendered,
// and each readme within the limits is rendered.
func TestRenderMarkdownStaysBounded(t *testing.T) {
	groups := boundGroups()
	if env := os.Getenv(boundChildEnv); env != "" {
		i, err := strconv.Atoi(env)
		if err != nil || i < 0 || i >= len(groups) {
			t.Fatalf("%s=%q: no such group of renders", boundChildEnv, env)
		}
		renderBoundedChild(t, groups[i])
		return
	}
	if testing.Short() {
		t.Skip("renders for seconds")
	}
	for i, group := range groups {
		name := "blow-ups"
		if i > 0 {
			name = strings.TrimPrefix(group[0].name, "bounded ")
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel() // each child renders on its own; this waits
			measureChild(t, i, len(group))
		})
	}
}

// measureChild runs the child process that renders group i (of n renders)
// and checks the heap each render took.
func measureChild(t *testing.T, i, n int) {
	// The child has the time this test has left, less a tenth to say what
	// it did: however slow the machine, it is never stopped sooner.
	ctx, args := t.Context(), []string{"-test.run=^TestRenderMarkdownStaysBounded$"}
	if deadline, ok := t.Deadline(); ok {
		left := time.Until(deadline) * 9 / 10
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, left)
		defer cancel()
		args = append(args, "-test.timeout="+left.String())
	}
	cmd := exec.CommandContext(ctx, os.Args[0], args...)
	// A race-enabled child would sleep a second at its exit waiting for
	// reports (atexit_sleep_ms): the parent reads its output, not that.
	cmd.Env = append(os.Environ(), boundChildEnv+"="+strconv.Itoa(i), "GORACE="+strings.TrimSpace(os.Getenv("GORACE")+" atexit_sleep_ms=0"))
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	// The child prints "start NAME" before each render and "done NAME HEAP
	// NANOS" after it.
	measured, last := 0, ""
	sc := bufio.NewScanner(bytes.NewReader(out.Bytes()))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		switch {
		case len(f) >= 2 && f[0] == "start":
			last = strings.Join(f[1:], " ")
		case len(f) >= 4 && f[0] == "done":
			heap, _ := strconv.Atoi(f[len(f)-2])
			took, _ := strconv.Atoi(f[len(f)-1])
			name := strings.Join(f[1:len(f)-2], " ")
			t.Logf("%-45s heap +%5.1f MB in %s", name, float64(heap)/(1<<20), time.Duration(took).Round(time.Millisecond))
			if heap > heapBound {
				t.Errorf("%s: the heap grew %d MB, over %d MB", name, heap>>20, heapBound>>20)
			}
			measured++
		}
	}
	if err != nil || measured != n {
		t.Fatalf("the child failed (%v) during %q after %d renders:\n%s", err, last, measured, tail(out.String(), 2000))
	}
}

// renderBoundedChild renders each job and prints what each took; it exits
// at once if the heap runs away.
func renderBoundedChild(t *testing.T, jobs []boundJob) {
	// Not a test of the budget: a render has all the time the child has.
	budget := patience
	if deadline, ok := t.Deadline(); ok {
		budget = max(time.Until(deadline), budget)
	}
	for _, j := range jobs {
		fmt.Printf("start %s\n", j.name)
		runtime.GC()
		base := heapObjects()
		stop, peak := make(chan struct{}), make(chan uint64)
		go func() {
			top := base
			tick := time.NewTicker(time.Millisecond)
			defer tick.Stop()
			for {
				top = max(top, heapObjects())
				if top-base > runaway {
					fmt.Printf("runaway %s: the heap grew %d MB\n", j.name, (top-base)>>20)
					os.Exit(2)
				}
				select {
				case <-stop:
					peak <- top
					return
				case <-tick.C:
				}
			}
		}()
		start := time.Now()
		r := RenderMarkdown(t.Context(), j.readme, mdLook("dark"), j.width, budget)
		took := time.Since(start)
		close(stop)
		top := <-peak
		fmt.Printf("done %s %d %d\n", j.name, top-base, took.Nanoseconds())
		if r.Text == "" {
			t.Errorf("%s: nothing shown", j.name)
		}
		if r.Note != j.note {
			t.Errorf("%s: note %q, want %q", j.name, r.Note, j.note)
		}
	}
}

// heapObjects is the heap's objects, live or not yet swept (MemStats'
// HeapAlloc), read without stopping the world as ReadMemStats does: the
// render runs on, undisturbed.
func heapObjects() uint64 {
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(sample)
	return sample[0].Value.Uint64()
}

// tail is the end of s, at most n bytes.
func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}
