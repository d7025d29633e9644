package files

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"
)

// ErrReadOnly is a file its owner made read-only, or that the person
// running canopy may not write: canopy does not replace it.
var ErrReadOnly = errors.New("is read-only: canopy does not replace a file it may not write")

// ErrKeptChanging is a file that changed each time canopy was about to
// replace it: the edit is not in it.
var ErrKeptChanging = errors.New("kept changing while canopy was saving it; it was not saved, try again")

// lockWait is how long Rewrite waits for another canopy replacing a file
// in the same directory: a few milliseconds is what it takes.
const lockWait = 5 * time.Second

// settle bounds the time Rewrite goes on editing again what another
// program keeps appending, so that what it appended stays in its order;
// past it, what came last is appended to the end instead.
const settle = 2 * time.Second

// tries bounds the rounds of Rewrite against a file another program keeps
// replacing.
const tries = 8

// Rewrite replaces the regular file at path (made, 0600, when missing)
// with what edit makes of its content, a file of at most limit bytes; the
// file keeps its mode. It never loses what another program writes
// meanwhile:
//   - other canopy processes wait for each other (a lock on the directory),
//     so each edits what the one before wrote;
//   - a file replaced or rewritten since it was read is read again, and
//     edit run on what it holds now;
//   - text appended to the file up to the instant it is replaced is read
//     from the old file afterwards, once no program has it open for
//     writing (on Linux; elsewhere at once), and edit run again with it;
//     when it keeps coming for longer than settle, the last of it is
//     appended to the new file (kept, though after what came after it).
//
// Its waits (for another canopy, for a writer) end with ctx.
// A file that is not regular, read-only, larger than limit, or that edit
// would make larger than limit, is left as it is, with an error.
func Rewrite(ctx context.Context, path string, limit int64, edit func(old []byte) ([]byte, error)) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	unlock, err := lockDir(ctx, dir, lockWait)
	if err != nil {
		return err
	}
	defer unlock()
	cur, err := current(path, limit)
	if err != nil {
		return err
	}
	defer func() { cur.close() }()
	base := cur.data // the content without canopy's edit
	var late []byte  // appended to a file canopy replaced, not in the new one yet
	// fail keeps late, whatever else went wrong.
	fail := func(err error) error {
		if len(late) > 0 {
			return errors.Join(err, cur.add(late))
		}
		return err
	}
	replaced, deadline := 0, time.Now().Add(settle)
	for replaced < tries && (len(late) == 0 || time.Now().Before(deadline)) {
		if err := cur.writable(); err != nil {
			return fail(err)
		}
		out, err := edit(base)
		if err != nil {
			return fail(err)
		}
		if int64(len(out)) > limit {
			return fail(fmt.Errorf("%s would be larger than %s, which canopy would refuse to read; the edit is not in it", path, Size(limit)))
		}
		tmp, err := writeTemp(dir, out, cur.mode, cur.owner)
		if err != nil {
			return fail(fmt.Errorf("write %s: %w", path, err))
		}
		now, err := cur.rewritten(path, limit)
		if err != nil || now != nil {
			discard(tmp)
			if err != nil {
				return fail(err)
			}
			base, late = now.data, nil // another program's file: edited again
			replaced++
			cur.close()
			cur = now
			continue
		}
		if err := os.Rename(tmp.Name(), path); err != nil {
			discard(tmp)
			return fail(fmt.Errorf("replace %s: %w", path, err))
		}
		old := cur
		cur = &file{path: path, f: tmp, data: out, mode: cur.mode, owner: cur.owner}
		if old.f != nil {
			waitWriters(ctx, old.f, lockWait)
		}
		late, err = old.since(limit)
		old.close()
		if err != nil || len(late) == 0 {
			return err
		}
		// Appended to the old file up to the instant it was replaced.
		base = slices.Concat(base, late)
	}
	if len(late) > 0 {
		return cur.add(late)
	}
	return fmt.Errorf("%s %w", path, ErrKeptChanging)
}

// file is the file at a path as canopy read it, kept open to read what is
// written to it after.
type file struct {
	path string
	f    *os.File // nil: no file there
	data []byte
	mode fs.FileMode
	// owner is the file's owner, kept by the file that replaces it.
	owner owner
}

// current opens and reads the file at path.
func current(path string, limit int64) (*file, error) {
	f, err := Open(path, os.O_RDONLY, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return &file{path: path, mode: 0o600}, nil
	}
	if err != nil {
		return nil, err
	}
	info, err := f.Stat()
	if err != nil {
		_ = f.Close()
		return nil, err
	}
	data, err := readAll(f, path, limit)
	if err != nil {
		_ = f.Close()
		return nil, err
	}
	return &file{path: path, f: f, data: data, mode: info.Mode().Perm(), owner: ownerOf(info)}, nil
}

// rewritten is the file at the path when it is another file than was
// read, or was rewritten in place; nil when it is the one read, perhaps
// with text appended (which since reads once it is replaced).
func (c *file) rewritten(path string, limit int64) (*file, error) {
	now, err := current(path, limit)
	if err != nil {
		return nil, err
	}
	if now.sameFile(c) && bytes.HasPrefix(now.data, c.data) {
		now.close()
		return nil, nil
	}
	return now, nil
}

// add appends late, appended to the file canopy replaced and not in the
// new one, to the file at the path, which must be the one canopy wrote.
func (c *file) add(late []byte) error {
	f, err := Open(c.path, os.O_WRONLY|os.O_APPEND|NoFollow, 0)
	if err != nil {
		return fmt.Errorf("%s: %d bytes written to it as canopy replaced it were not kept: %w", c.path, len(late), err)
	}
	defer f.Close()
	if !c.sameAs(f) {
		return fmt.Errorf("%s was replaced as canopy saved it: %d bytes written to it meanwhile were not kept", c.path, len(late))
	}
	if _, err := f.Write(late); err != nil {
		return fmt.Errorf("%s: %d bytes written to it as canopy replaced it were not kept: %w", c.path, len(late), err)
	}
	return nil
}

// since is what was written to the file after it was read (it may have
// been replaced since: this is the file as it was opened).
func (c *file) since(limit int64) ([]byte, error) {
	if c.f == nil {
		return nil, nil
	}
	all, err := readAll(c.f, c.path, limit)
	if err != nil {
		return nil, err
	}
	if !bytes.HasPrefix(all, c.data) {
		return nil, nil // rewritten in place: the file there now is what counts
	}
	return all[len(c.data):], nil
}

func (c *file) sameFile(o *file) bool {
	if c.f == nil || o.f == nil {
		return c.f == nil && o.f == nil
	}
	return c.sameAs(o.f)
}

func (c *file) sameAs(f *os.File) bool {
	if c.f == nil {
		return false
	}
	a, aerr := c.f.Stat()
	b, berr := f.Stat()
	return aerr == nil && berr == nil && os.SameFile(a, b)
}

// writable refuses a file its owner made read-only (even to one who could
// write it), or one the person running canopy may not write.
func (c *file) writable() error {
	if c.f == nil {
		return nil
	}
	if c.mode&0o222 == 0 || writable(c.path) != nil {
		return fmt.Errorf("%s %w", c.path, ErrReadOnly)
	}
	return nil
}

func (c *file) close() {
	if c.f != nil {
		_ = c.f.Close()
	}
}

// writeTemp writes b to a new file in dir with mode and the owner of the
// file it replaces, synced, to be renamed over it. What it gives is the file opened again to
// read only: canopy does not hold it open for writing once it is in place
// (waitWriters would wait for canopy itself).
func writeTemp(dir string, b []byte, mode fs.FileMode, o owner) (*os.File, error) {
	tmp, err := os.CreateTemp(dir, ".canopy-*.tmp")
	if err != nil {
		return nil, err
	}
	if _, err := tmp.Write(b); err != nil {
		discard(tmp)
		return nil, err
	}
	if err := tmp.Chmod(mode); err != nil {
		discard(tmp)
		return nil, err
	}
	if err := o.keep(tmp); err != nil {
		discard(tmp)
		return nil, err
	}
	if err := tmp.Sync(); err != nil {
		discard(tmp)
		return nil, err
	}
	r, err := Open(tmp.Name(), os.O_RDONLY|NoFollow, 0)
	if err != nil {
		discard(tmp)
		return nil, err
	}
	if err := tmp.Close(); err != nil {
		discard(r)
		return nil, err
	}
	return r, nil
}

func discard(tmp *os.File) {
	_ = tmp.Close()
	_ = os.Remove(tmp.Name())
}
