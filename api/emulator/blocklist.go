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

// A list entry is an id with its kind in bits 28 to 31: a tag costs a
// list 4 bytes, not 5, and a scan reads kinds in order (a lookup by id
// would miss the cache once an entry). Ids stay below 2²⁸.
const (
	classShift = 28
	idMask     = 1<<classShift - 1
)

func pack(id int32, kind uint8) int32 { return id | int32(uint32(kind)<<classShift) }
func idOf(e int32) int32              { return e & idMask }
func clsOf(e int32) uint8             { return uint8(uint32(e) >> classShift) }

// block is a run of a list's entries (ids with their kinds) and its count
// of each kind.
type block struct {
	ids []int32 // packed: see pack
	cnt [numKinds]int32
}

// count sets the block's class counts from its entries.
func (b *block) count() {
	b.cnt = [numKinds]int32{}
	for _, e := range b.ids {
		b.cnt[clsOf(e)]++
	}
}

// counts is how many ids, and of each kind, lie before a block.
type counts struct {
	n   int32
	cls [numKinds]int32
}

// blockList is one ordering of the items of a scope.
type blockList struct {
	blocks  []block
	pre     []counts // pre[b]: the ids of blocks[:b]; len(blocks)+1 entries
	classed bool     // ids carry a class (tags)
}

func newBlockList(classed bool) *blockList {
	return &blockList{pre: make([]counts, 1), classed: classed}
}

// buildBlockList makes a list of ids already in order, with their classes
// (cls, parallel to ids) when it is classed. It takes ids over: the list's
// entries are written into it.
func buildBlockList(ids []int32, cls []uint8, classed bool) *blockList {
	if classed {
		for i, c := range cls[:len(ids)] {
			ids[i] = pack(ids[i], c)
		}
	}
	return blocksOf(ids, classed)
}

// blocksOf makes a list of entries already packed and in order, without
// copying them: each block is a piece of es, capped so that an insert into
// it moves it elsewhere rather than writing over the next one's.
func blocksOf(es []int32, classed bool) *blockList {
	l := &blockList{blocks: make([]block, 0, (len(es)+blockSize-1)/blockSize), classed: classed}
	for len(es) > 0 {
		n := min(len(es), blockSize)
		l.blocks = append(l.blocks, block{ids: es[:n:n]})
		l.blocks[len(l.blocks)-1].count()
		es = es[n:]
	}
	l.recount()
	return l
}

// recount rebuilds pre from the blocks' counts: O(number of blocks).
func (l *blockList) recount() {
	if cap(l.pre) < len(l.blocks)+1 {
		l.pre = make([]counts, 0, len(l.blocks)+1)
	}
	l.pre = l.pre[:0]
	var run counts
	l.pre = append(l.pre, run)
	for i := range l.blocks {
		b := &l.blocks[i]
		run.n += int32(len(b.ids))
		for c := range numKinds {
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
	return idOf(l.blocks[b].ids[i])
}

// kindAt is the kind of the entry at position p.
func (l *blockList) kindAt(p int) uint8 {
	b, i := l.locate(p)
	return clsOf(l.blocks[b].ids[i])
}

// search is the first position whose id satisfies f, which must be false
// and then true along the list (Len when none does).
func (l *blockList) search(f func(int32) bool) int {
	if l == nil {
		return 0
	}
	b := sort.Search(len(l.blocks), func(i int) bool { ids := l.blocks[i].ids; return f(idOf(ids[len(ids)-1])) })
	if b == len(l.blocks) {
		return l.Len()
	}
	ids := l.blocks[b].ids
	return int(l.pre[b].n) + sort.Search(len(ids), func(i int) bool { return f(idOf(ids[i])) })
}

// insert puts id (of class cls) at position p.
func (l *blockList) insert(p int, id int32, cls uint8) {
	if !l.classed {
		cls = classNormal
	}
	if len(l.blocks) == 0 {
		l.blocks = append(l.blocks, block{})
		l.pre = append(l.pre[:1], counts{})
	}
	b, i := len(l.blocks)-1, len(l.blocks[len(l.blocks)-1].ids)
	if p < l.Len() {
		b, i = l.locate(p)
	}
	blk := &l.blocks[b]
	blk.ids = slices.Insert(blk.ids, i, pack(id, cls))
	blk.cnt[cls]++
	if len(blk.ids) >= 2*blockSize {
		// Split: the second half becomes a block of its own.
		half := len(blk.ids) / 2
		nb := block{ids: slices.Clone(blk.ids[half:])}
		blk.ids = slices.Clip(blk.ids[:half])
		blk.count()
		nb.count()
		l.blocks = slices.Insert(l.blocks, b+1, nb)
		l.recount()
		return
	}
	l.shift(b, cls, 1)
}

// remove deletes the id at position p.
func (l *blockList) remove(p int) {
	b, i := l.locate(p)
	blk := &l.blocks[b]
	cls := clsOf(blk.ids[i])
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
		blk := &l.blocks[b]
		blk.cnt[clsOf(blk.ids[i])]--
		blk.ids = slices.Delete(blk.ids, i, i+1)
	}
	l.blocks = slices.DeleteFunc(l.blocks, func(b block) bool { return len(b.ids) == 0 })
	l.recount()
}

// visibleBefore counts the ids of positions [0, p) whose kind mask admits.
func (l *blockList) visibleBefore(mask kindMask, p int) int {
	if !l.classed || mask == kindsAll {
		return p
	}
	if p >= l.Len() {
		return maskCount(mask, &l.pre[len(l.blocks)])
	}
	b, i := l.locate(p)
	n := maskCount(mask, &l.pre[b])
	for _, e := range l.blocks[b].ids[:i] {
		if mask1(mask, clsOf(e)) {
			n++
		}
	}
	return n
}

func maskCount(mask kindMask, c *counts) int {
	n := 0
	for cl := range numKinds {
		if mask1(mask, uint8(cl)) {
			n += int(c.cls[cl])
		}
	}
	return n
}

// rawPos is the position of the r-th (0-based) id mask admits (Len when
// there are not that many).
func (l *blockList) rawPos(mask kindMask, r int) int {
	if !l.classed || mask == kindsAll {
		return min(r, l.Len())
	}
	// The last block with at most r admitted ids before it.
	b := sort.Search(len(l.blocks), func(i int) bool { return maskCount(mask, &l.pre[i+1]) > r })
	if b == len(l.blocks) {
		return l.Len()
	}
	n := maskCount(mask, &l.pre[b])
	for i, e := range l.blocks[b].ids {
		if mask1(mask, clsOf(e)) {
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
		blk := &l.blocks[b]
		for i >= 0 && i < len(blk.ids) {
			if e := blk.ids[i]; !fn(idOf(e), clsOf(e)) {
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
	for i := range l.blocks {
		for _, e := range l.blocks[i].ids {
			fn(idOf(e))
		}
	}
}

// all is the ids in order (a copy).
func (l *blockList) all() []int32 {
	out := make([]int32, 0, l.Len())
	l.each(func(id int32) { out = append(out, id) })
	return out
}
