package emulator

import (
	"slices"
	"sort"
)

// blockSize is how many ids a block of a list holds after a build or a
// split; a block splits at twice that. An insert or delete moves at most a
// block and adds to one count per block after it: O(√n) at 10⁶ items
// (≈ 2,000 blocks), instead of moving and recounting the whole list.
const blockSize = 512

// block is a run of a list's ids, with their classes (nil when the
// collection has none) and its count of each class.
type block struct {
	ids []int32
	cls []uint8
	cnt [numClasses]int32
}

// counts is how many ids, and of each class, lie before a block.
type counts struct {
	n   int32
	cls [numClasses]int32
}

// blockList is one ordering of the items of a scope.
type blockList struct {
	blocks  []*block
	pre     []counts // pre[b]: the ids of blocks[:b]; len(blocks)+1 entries
	classed bool     // ids carry a class (tags)
}

func newBlockList(classed bool) *blockList {
	return &blockList{pre: make([]counts, 1), classed: classed}
}

// buildBlockList makes a list of ids already in order, with their classes
// (cls, parallel to ids) when it is classed.
func buildBlockList(ids []int32, cls []uint8, classed bool) *blockList {
	l := newBlockList(classed)
	for len(ids) > 0 {
		n := min(len(ids), blockSize)
		b := &block{ids: slices.Clone(ids[:n])}
		if classed {
			b.cls = slices.Clone(cls[:n])
			for _, c := range b.cls {
				b.cnt[c]++
			}
			cls = cls[n:]
		} else {
			b.cnt[classNormal] = int32(n)
		}
		l.blocks = append(l.blocks, b)
		ids = ids[n:]
	}
	l.recount()
	return l
}

// recount rebuilds pre from the blocks' counts: O(number of blocks).
func (l *blockList) recount() {
	l.pre = slices.Grow(l.pre[:0], len(l.blocks)+1)
	var run counts
	l.pre = append(l.pre, run)
	for _, b := range l.blocks {
		run.n += int32(len(b.ids))
		for c := range numClasses {
			run.cls[c] += b.cnt[c]
		}
		l.pre = append(l.pre, run)
	}
}

// Len is the number of ids.
func (l *blockList) Len() int {
	if l == nil {
		return 0
	}
	return int(l.pre[len(l.blocks)].n)
}

// locate is the block holding position p (< Len) and p's index in it.
func (l *blockList) locate(p int) (int, int) {
	b := sort.Search(len(l.blocks), func(i int) bool { return int(l.pre[i+1].n) > p })
	return b, p - int(l.pre[b].n)
}

// at is the id at position p.
func (l *blockList) at(p int) int32 {
	b, i := l.locate(p)
	return l.blocks[b].ids[i]
}

// search is the first position whose id satisfies f, which must be false
// and then true along the list (Len when none does).
func (l *blockList) search(f func(int32) bool) int {
	if l == nil {
		return 0
	}
	b := sort.Search(len(l.blocks), func(i int) bool { ids := l.blocks[i].ids; return f(ids[len(ids)-1]) })
	if b == len(l.blocks) {
		return l.Len()
	}
	ids := l.blocks[b].ids
	return int(l.pre[b].n) + sort.Search(len(ids), func(i int) bool { return f(ids[i]) })
}

// insert puts id (of class cls) at position p.
func (l *blockList) insert(p int, id int32, cls uint8) {
	if len(l.blocks) == 0 {
		l.blocks = append(l.blocks, &block{})
		l.pre = append(l.pre[:1], counts{})
	}
	b, i := len(l.blocks)-1, len(l.blocks[len(l.blocks)-1].ids)
	if p < l.Len() {
		b, i = l.locate(p)
	}
	blk := l.blocks[b]
	blk.ids = slices.Insert(blk.ids, i, id)
	if l.classed {
		blk.cls = slices.Insert(blk.cls, i, cls)
	}
	blk.cnt[cls]++
	if len(blk.ids) >= 2*blockSize {
		// Split: the second half becomes a block of its own.
		half := len(blk.ids) / 2
		nb := &block{ids: slices.Clone(blk.ids[half:])}
		blk.ids = slices.Clip(blk.ids[:half])
		if l.classed {
			nb.cls = slices.Clone(blk.cls[half:])
			blk.cls = slices.Clip(blk.cls[:half])
			blk.cnt = [numClasses]int32{}
			for _, c := range blk.cls {
				blk.cnt[c]++
			}
			for _, c := range nb.cls {
				nb.cnt[c]++
			}
		} else {
			blk.cnt[classNormal], nb.cnt[classNormal] = int32(len(blk.ids)), int32(len(nb.ids))
		}
		l.blocks = slices.Insert(l.blocks, b+1, nb)
		l.recount()
		return
	}
	l.shift(b, cls, 1)
}

// remove deletes the id at position p.
func (l *blockList) remove(p int) {
	b, i := l.locate(p)
	blk := l.blocks[b]
	cls := uint8(classNormal)
	if l.classed {
		cls = blk.cls[i]
		blk.cls = slices.Delete(blk.cls, i, i+1)
	}
	blk.ids = slices.Delete(blk.ids, i, i+1)
	blk.cnt[cls]--
	if len(blk.ids) == 0 {
		l.blocks = slices.Delete(l.blocks, b, b+1)
		l.recount()
		return
	}
	l.shift(b, cls, -1)
}

// shift adds d ids of class cls to the counts before every block after b.
func (l *blockList) shift(b int, cls uint8, d int32) {
	for i := b + 1; i < len(l.pre); i++ {
		l.pre[i].n += d
		l.pre[i].cls[cls] += d
	}
}

// removeMany deletes the ids at these positions, with one rebuild of the
// counts: a repo's tags leave a list of 10⁶ in one pass.
func (l *blockList) removeMany(positions []int) {
	switch len(positions) {
	case 0:
		return
	case 1:
		l.remove(positions[0])
		return
	}
	slices.Sort(positions)
	positions = slices.Compact(positions)
	// From the last position back: locating one only reads the counts of
	// the blocks before it, which the deletions so far (all after it, or in
	// its own block) have not changed, so the counts are rebuilt once, at
	// the end.
	for k := len(positions) - 1; k >= 0; k-- {
		b, i := l.locate(positions[k])
		blk := l.blocks[b]
		cls := uint8(classNormal)
		if l.classed {
			cls = blk.cls[i]
			blk.cls = slices.Delete(blk.cls, i, i+1)
		}
		blk.ids = slices.Delete(blk.ids, i, i+1)
		blk.cnt[cls]--
	}
	l.blocks = slices.DeleteFunc(l.blocks, func(b *block) bool { return len(b.ids) == 0 })
	l.recount()
}

// visibleBefore counts the ids of positions [0, p) whose class mask admits.
func (l *blockList) visibleBefore(mask uint8, p int) int {
	if !l.classed || mask == maskAll {
		return p
	}
	if p >= l.Len() {
		return maskCount(mask, &l.pre[len(l.blocks)])
	}
	b, i := l.locate(p)
	n := maskCount(mask, &l.pre[b])
	for _, c := range l.blocks[b].cls[:i] {
		if mask1(mask, c) {
			n++
		}
	}
	return n
}

func maskCount(mask uint8, c *counts) int {
	n := 0
	for cl := range numClasses {
		if mask1(mask, uint8(cl)) {
			n += int(c.cls[cl])
		}
	}
	return n
}

// rawPos is the position of the r-th (0-based) id mask admits (Len when
// there are not that many).
func (l *blockList) rawPos(mask uint8, r int) int {
	if !l.classed || mask == maskAll {
		return min(r, l.Len())
	}
	// The last block with at most r admitted ids before it.
	b := sort.Search(len(l.blocks), func(i int) bool { return maskCount(mask, &l.pre[i+1]) > r })
	if b == len(l.blocks) {
		return l.Len()
	}
	n := maskCount(mask, &l.pre[b])
	for i, c := range l.blocks[b].cls {
		if mask1(mask, c) {
			if n == r {
				return int(l.pre[b].n) + i
			}
			n++
		}
	}
	return l.Len()
}

// walk calls fn with the ids (and classes) from position p on, forwards or
// backwards, until fn returns false or the list ends.
func (l *blockList) walk(p int, forward bool, fn func(id int32, cls uint8) bool) {
	if l == nil || p < 0 || p >= l.Len() {
		return
	}
	b, i := l.locate(p)
	for b >= 0 && b < len(l.blocks) {
		blk := l.blocks[b]
		for i >= 0 && i < len(blk.ids) {
			cls := uint8(classNormal)
			if l.classed {
				cls = blk.cls[i]
			}
			if !fn(blk.ids[i], cls) {
				return
			}
			if forward {
				i++
			} else {
				i--
			}
		}
		if forward {
			b, i = b+1, 0
		} else if b--; b >= 0 {
			i = len(l.blocks[b].ids) - 1
		}
	}
}

// each calls fn with every id in order.
func (l *blockList) each(fn func(id int32)) {
	if l == nil {
		return
	}
	for _, b := range l.blocks {
		for _, id := range b.ids {
			fn(id)
		}
	}
}

// all is the ids in order (a copy).
func (l *blockList) all() []int32 {
	out := make([]int32, 0, l.Len())
	l.each(func(id int32) { out = append(out, id) })
	return out
}
