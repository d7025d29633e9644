package paging

import (
	"context"
	"strconv"
	"testing"
)

// sevens keeps the first page and every item whose number ends in 7: what
// a scan for flagged rows keeps of a list.
func sevens(pos int, it *item) bool { return pos < 200 || it.uid[len(it.uid)-1] == '7' }

// scanAll reads every page of l, three at a time, as a flag's scan does.
func scanAll(t *testing.T, l *List[item]) {
	t.Helper()
	for !l.Done() {
		before := l.Loaded()
		run(t, l, l.Scan(3))
		if l.Loaded() == before {
			t.Fatalf("the scan stalled at %d of %d", before, l.Total())
		}
	}
}

// checkKept checks that every position reads as the item it is, held when
// keep takes it and not held otherwise, and that Each and Runs hold the
// same items.
func checkKept(t *testing.T, l *List[item], n int, uidAt func(pos int) string, keep func(int, *item) bool) {
	t.Helper()
	held := 0
	for pos := range n {
		want := item{uid: uidAt(pos)}
		it, ok := l.At(pos)
		if ok != keep(pos, &want) || ok && it.uid != want.uid {
			t.Fatalf("At(%d) = %v %v, want %s held %v", pos, it, ok, want.uid, keep(pos, &want))
		}
		if ok {
			held++
		}
	}
	each := 0
	l.Each(func(pos int, it *item) bool {
		if it.uid != uidAt(pos) {
			t.Fatalf("Each gives %s at %d, want %s", it.uid, pos, uidAt(pos))
		}
		each++
		return true
	})
	runs := 0
	for _, r := range l.Runs() {
		for i := range r.Items {
			if r.Items[i].uid != uidAt(r.Start+i) {
				t.Fatalf("Runs give %s at %d, want %s", r.Items[i].uid, r.Start+i, uidAt(r.Start+i))
			}
			runs++
		}
	}
	if each != held || runs != held {
		t.Fatalf("held %d, Each %d, Runs %d", held, each, runs)
	}
}

func uidOf(pos int) string { return "u" + strconv.Itoa(pos) }

// A thinned scan reads every position with the requests of a plain one,
// and holds only what keep takes, at its place.
func TestAThinnedScanHoldsWhatItKeepsAtItsPlace(t *testing.T) {
	plainSrc, thinSrc := &fakeSource{n: 5000}, &fakeSource{n: 5000}
	plain := New(context.Background(), plainSrc.source, key)
	run(t, plain, plain.Start())
	scanAll(t, plain)
	l := New(context.Background(), thinSrc.source, key)
	l.Thin(sevens)
	run(t, l, l.Start())
	scanAll(t, l)
	if len(thinSrc.requests) != len(plainSrc.requests) {
		t.Errorf("the thinned scan took %d requests, the plain one %d", len(thinSrc.requests), len(plainSrc.requests))
	}
	if l.Loaded() != 5000 || l.Total() != 5000 || !l.Done() {
		t.Fatalf("loaded %d of %d, done %v", l.Loaded(), l.Total(), l.Done())
	}
	checkKept(t, l, 5000, uidOf, sevens)
}

// Thin over rows held thins them too; removing and replacing a kept row
// keeps every other at its place.
func TestThinningWhatIsHeldThenRemoving(t *testing.T) {
	src := &fakeSource{n: 1000}
	l := New(context.Background(), src.source, key)
	run(t, l, l.Start())
	scanAll(t, l)
	before := l.Runs()
	l.Thin(sevens)
	checkKept(t, l, 1000, uidOf, sevens)
	if before[4].Items[199].uid != "u999" {
		t.Error("a snapshot taken before thinning changed")
	}
	for _, uid := range []string{"u507", "u3", "u997"} {
		if !l.Remove(uid) {
			t.Fatalf("Remove(%s) = false", uid)
		}
	}
	if l.Remove("u508") {
		t.Error("removed u508, which is not held")
	}
	if !l.Replace("u617", item{uid: "u617"}) {
		t.Error("Replace(u617) = false")
	}
	gone := map[int]bool{507: true, 3: true, 997: true}
	var uids []string
	for i := range 1000 {
		if !gone[i] {
			uids = append(uids, uidOf(i))
		}
	}
	if l.Loaded() != 997 || l.Total() != 997 {
		t.Fatalf("loaded %d of %d, want 997", l.Loaded(), l.Total())
	}
	// The first page held every row: the positions before 200 are u0..u199
	// but u3, whatever keep says of them now.
	keep := func(pos int, it *item) bool { return pos < 199 || sevens(200, it) }
	checkKept(t, l, 997, func(pos int) string { return uids[pos] }, keep)
	if p := l.Position("u617"); p != 615 {
		t.Errorf("Position(u617) = %d, want 615", p)
	}
}

// Thin(nil) gives the thinned pages back as gaps: the whole pages stay,
// Ensure fetches the others again (one request for a screen), and what
// comes is taken as new, at its place.
func TestThickeningRefetchesWhatWasDropped(t *testing.T) {
	src := &fakeSource{n: 5000}
	l := New(context.Background(), src.source, key)
	l.Thin(sevens)
	run(t, l, l.Start())
	scanAll(t, l)
	l.Thin(nil)
	if l.Done() || l.Loaded() != 200 || l.Thinned() {
		t.Fatalf("after Thin(nil): done %v, loaded %d; want the first page only", l.Done(), l.Loaded())
	}
	checkRow(t, l, 150)
	if _, ok := l.At(2017); ok {
		t.Fatal("a row of a thinned page is still held")
	}
	asked := len(src.requests)
	run(t, l, l.Ensure(2017, 0))
	if got := len(src.requests) - asked; got != 1 {
		t.Errorf("%d requests for row 2017, want 1", got)
	}
	for pos := 2000; pos < 2030; pos++ {
		checkRow(t, l, pos)
	}
	// Walking on from the first page follows its token.
	asked = len(src.requests)
	run(t, l, l.Ensure(200, 0))
	if got := src.requests[asked:]; len(got) != 1 || got[0].Token != "200" {
		t.Errorf("walking on from the first page asked %+v, want its token", got)
	}
	checkRow(t, l, 250)
}

// A server that ignores skip is walked by token alone: after Thin(nil)
// the walk goes on from the last whole page by its token.
func TestThickeningOnAServerThatIgnoresSkip(t *testing.T) {
	src := &fakeSource{n: 1000, ignoreSkip: true}
	l := New(context.Background(), src.source, key)
	l.Thin(sevens)
	run(t, l, l.Start())
	scanAll(t, l)
	l.Thin(nil)
	for pos := 0; pos < 1000; pos++ {
		run(t, l, l.Ensure(pos, 10))
		checkRow(t, l, pos)
	}
}

// shifted serves, after the first page, the list as it is once an item
// was added at its top: every position after it holds the item that was
// one before, so the next page begins with the last one read.
func shifted(f *fakeSource) Source[item] {
	return func(ctx context.Context, req Request) (Result[item], error) {
		if req.Skip == 0 && req.Token == "" {
			return f.source(ctx, req)
		}
		if req.Token != "" {
			pos, _ := strconv.Atoi(req.Token)
			req.Token, req.Skip = "", pos+req.Skip
		}
		req.Skip--
		res, err := f.source(ctx, req)
		res.Skipped++
		res.Total++
		if res.Next != "" {
			res.Next = strconv.Itoa(res.Skipped + len(res.Items))
		}
		return res, err
	}
}

// scanUntilStill scans l until a round brings nothing.
func scanUntilStill(t *testing.T, l *List[item]) {
	t.Helper()
	for before := -1; l.Loaded() != before; {
		before = l.Loaded()
		run(t, l, l.Scan(3))
	}
}

// A thinned scan tells an item sent again by a page that overlaps the one
// before, kept or dropped, as a plain one does: it holds what the plain
// one holds that keep takes, each at the same place, none twice.
func TestAThinnedScanDropsRepeatsAsAPlainOne(t *testing.T) {
	plain := New(context.Background(), shifted(&fakeSource{n: 3000}), key)
	run(t, plain, plain.Start())
	scanUntilStill(t, plain)
	l := New(context.Background(), shifted(&fakeSource{n: 3000}), key)
	l.Thin(sevens)
	run(t, l, l.Start())
	scanUntilStill(t, l)
	if l.Loaded() != plain.Loaded() || l.Loaded() < 2900 {
		t.Fatalf("read %d positions, the plain scan %d", l.Loaded(), plain.Loaded())
	}
	seen := map[string]bool{}
	plain.Each(func(pos int, want *item) bool {
		it, ok := l.At(pos)
		if ok != sevens(pos, want) || ok && it.uid != want.uid {
			t.Fatalf("At(%d) = %v %v; the plain scan has %s there", pos, it, ok, want.uid)
		}
		if seen[want.uid] {
			t.Fatalf("%s read twice", want.uid)
		}
		seen[want.uid] = true
		return true
	})
}
