package paging

import (
	"context"
	"errors"
	"strconv"
	"testing"
)

// noTotals serves the fake source's pages without a total, as a server may.
func noTotals(f *fakeSource) Source[item] {
	return func(ctx context.Context, req Request) (Result[item], error) {
		res, err := f.source(ctx, req)
		res.Total, res.NoTotal = 0, true
		return res, err
	}
}

func TestWithoutATotalTheCountIsALowerBoundUntilTheEnd(t *testing.T) {
	f := &fakeSource{n: 450}
	l := New(t.Context(), noTotals(f), key)
	run(t, l, l.Reset(""))
	if n, exact := l.Count(); n != 200 || exact {
		t.Fatalf("after one page: Count() = %d, %v; want 200, not exact", n, exact)
	}
	if l.Total() != 201 || l.Done() {
		t.Fatalf("Total() = %d (want 201: one row stands for the rest), Done %v", l.Total(), l.Done())
	}
	// Moving near the end follows the token: one page at a time.
	run(t, l, l.Ensure(150, 60))
	if n, exact := l.Count(); n != 400 || exact {
		t.Fatalf("after scrolling: Count() = %d, %v; want 400, not exact", n, exact)
	}
	if last := f.requests[len(f.requests)-1]; last.Token == "" || last.Size != 200 {
		t.Errorf("the tail was asked with %+v, want a token and a full page", last)
	}
	run(t, l, l.Ensure(399, 60))
	if n, exact := l.Count(); n != 450 || !exact || l.Total() != 450 || !l.Done() {
		t.Fatalf("at the end: Count() = %d, %v, Total %d, Done %v; want 450 exact", n, exact, l.Total(), l.Done())
	}
	for i := range 450 {
		checkRow(t, l, i)
	}
}

func TestWithoutATotalScanReadsEveryPage(t *testing.T) {
	f := &fakeSource{n: 1000}
	l := New(t.Context(), noTotals(f), key)
	run(t, l, l.Reset(""))
	for range 20 {
		run(t, l, l.Scan(3))
		if l.Done() {
			break
		}
	}
	if !l.Done() || l.Loaded() != 1000 {
		t.Fatalf("scan: loaded %d, done %v", l.Loaded(), l.Done())
	}
}

// emptyForever answers every page with nothing and a token: a new one each
// time, or the same one again.
func emptyForever(n *int, same bool) Source[item] {
	return func(_ context.Context, req Request) (Result[item], error) {
		*n++
		if same {
			return Result[item]{NoTotal: true, Next: "again"}, nil
		}
		return Result[item]{NoTotal: true, Next: strconv.Itoa(*n)}, nil
	}
}

func TestEmptyPagesWithATokenAreFollowedABoundedNumberOfTimes(t *testing.T) {
	requests := 0
	l := New(t.Context(), emptyForever(&requests, false), key)
	run(t, l, l.Reset(""))
	if requests != maxStalePages {
		t.Errorf("%d requests, want %d", requests, maxStalePages)
	}
	if err, _ := l.Err(); !errors.Is(err, ErrStuck) {
		t.Errorf("Err() = %v, want ErrStuck", err)
	}
	if cmd := l.Ensure(0, 60); cmd != nil {
		if run(t, l, cmd) > 0 {
			t.Error("a stuck list asked again without r")
		}
	}
}

func TestTheSameTokenWithNothingStopsAtOnce(t *testing.T) {
	requests := 0
	l := New(t.Context(), emptyForever(&requests, true), key)
	run(t, l, l.Reset(""))
	if requests != 2 {
		t.Errorf("%d requests, want 2 (the first page, then its token once)", requests)
	}
	if err, _ := l.Err(); !errors.Is(err, ErrStuck) {
		t.Errorf("Err() = %v, want ErrStuck", err)
	}
}

func TestARefusedOrderFallsBackToTheDefaultOnce(t *testing.T) {
	f := &fakeSource{n: 10}
	refused := func(ctx context.Context, req Request) (Result[item], error) {
		if req.OrderBy != "" {
			return Result[item]{}, &OrderRefused{Collection: "things", Order: req.OrderBy, Err: errors.New("invalid argument: order_by")}
		}
		return f.source(ctx, req)
	}
	l := New(t.Context(), refused, key)
	run(t, l, l.Reset("name"))
	if l.Order() != "" || l.Loaded() != 10 {
		t.Fatalf("order %q, loaded %d; want the default order and every row", l.Order(), l.Loaded())
	}
	if err, _ := l.Err(); err != nil {
		t.Errorf("Err() = %v, want none", err)
	}
	r, ok := l.TakeRefusal()
	if !ok || r.Order != "name" || r.Collection != "things" {
		t.Fatalf("TakeRefusal() = %+v, %v", r, ok)
	}
	if _, again := l.TakeRefusal(); again {
		t.Error("the refusal was told twice")
	}
	// Asked again, the refused order is not sent.
	before := len(f.requests)
	run(t, l, l.Reset("name"))
	if l.Order() != "" || len(f.requests) != before+1 || f.requests[before].OrderBy != "" {
		t.Errorf("Reset(name) again sent %+v", f.requests[before:])
	}
}
