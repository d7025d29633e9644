package lazyregexp

import (
	"regexp"
	"sync"
	"testing"
)

func TestAnswersAsTheCompiledPattern(t *testing.T) {
	const expr = `^([a-z]+)-([0-9]+)$`
	lazy, eager := New(expr), regexp.MustCompile(expr)
	if lazy.String() != expr {
		t.Errorf("String() = %q, want %q", lazy.String(), expr)
	}
	for _, s := range []string{"abc-12", "abc-", "x-1\n", "", "ab-12-3"} {
		if got, want := lazy.MatchString(s), eager.MatchString(s); got != want {
			t.Errorf("MatchString(%q) = %v, want %v", s, got, want)
		}
		if got, want := lazy.FindStringSubmatch(s), eager.FindStringSubmatch(s); len(got) != len(want) {
			t.Errorf("FindStringSubmatch(%q) = %q, want %q", s, got, want)
		}
		if got, want := lazy.FindStringSubmatchIndex(s), eager.FindStringSubmatchIndex(s); len(got) != len(want) {
			t.Errorf("FindStringSubmatchIndex(%q) = %v, want %v", s, got, want)
		}
		if got, want := lazy.FindIndex([]byte(s)), eager.FindIndex([]byte(s)); len(got) != len(want) {
			t.Errorf("FindIndex(%q) = %v, want %v", s, got, want)
		}
		if got, want := lazy.ReplaceAllString(s, "<$2>"), eager.ReplaceAllString(s, "<$2>"); got != want {
			t.Errorf("ReplaceAllString(%q) = %q, want %q", s, got, want)
		}
		upper := func(m string) string { return "[" + m + "]" }
		if got, want := lazy.ReplaceAllStringFunc(s, upper), eager.ReplaceAllStringFunc(s, upper); got != want {
			t.Errorf("ReplaceAllStringFunc(%q) = %q, want %q", s, got, want)
		}
	}
	if lazy.Regexp() != lazy.Regexp() {
		t.Error("Regexp() compiled the pattern twice")
	}
}

func TestCompilesOnceWhenFirstUsedConcurrently(t *testing.T) {
	r := New(`^a+$`)
	var wg sync.WaitGroup
	got := make([]*regexp.Regexp, 8)
	for i := range got {
		wg.Add(1)
		go func() { defer wg.Done(); got[i] = r.Regexp() }()
	}
	wg.Wait()
	for _, g := range got[1:] {
		if g != got[0] {
			t.Fatal("two goroutines got two compiled patterns")
		}
	}
}

func TestABadPatternPanicsInATestBinaryAsItIsMade(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("a bad pattern was made without a panic in a test binary")
		}
	}()
	New(`(`)
}

func TestOutsideTestsABadPatternPanicsOnlyWhenUsed(t *testing.T) {
	defer func(was bool) { inTest = was }(inTest)
	inTest = false
	bad := New(`(`) // made without a panic outside a test binary
	defer func() {
		if recover() == nil {
			t.Error("a bad pattern matched without a panic")
		}
	}()
	bad.MatchString("x")
}
