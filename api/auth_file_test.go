//go:build unix

package api

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// tokenWithin runs Token on a chain with --token-file path and fails the test unless it ends,
// as it must whatever the file is: a read that blocks would hang canopy before its first frame,
// deaf to ctrl+c. A blocked read never ends: the test's patience only lets a loaded machine be
// late.
func tokenWithin(t *testing.T, path string, opts TokenOptions) error {
	t.Helper()
	opts.TokenFile, opts.LookPath, opts.CacheDir = path, noChainctl, t.TempDir()
	if opts.Getenv == nil {
		opts.Getenv = newFakeEnv(nil).Getenv
	}
	done := make(chan error, 1)
	go func() {
		_, err := NewTokenSource(opts).Token()
		done <- err
	}()
	select {
	case err := <-done:
		return err
	case <-time.After(patience):
		t.Fatalf("Token() on %s still blocked after %v", path, patience)
		return nil
	}
}

// TestTokenFileFIFO is the attack of issue 19 item 3: --token-file on a FIFO that no one writes
// blocked in open forever. It is refused at once, without a writer ever appearing.
func TestTokenFileFIFO(t *testing.T) {
	t.Parallel()
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	// Should the read block, a writer that opens and closes unblocks it once the test is over.
	t.Cleanup(func() {
		if f, err := os.OpenFile(fifo, os.O_RDWR, 0); err == nil {
			_ = f.Close()
		}
	})
	err := tokenWithin(t, fifo, TokenOptions{})
	if err == nil || !strings.Contains(err.Error(), "token file "+fifo+" is not a regular file (a named pipe, FIFO?)") {
		t.Fatalf("err = %v", err)
	}
}

// TestTokenFileNotRegular: a directory and a device are refused too, before anything is read,
// and so is a symlink to them; a symlink to a regular file is followed.
func TestTokenFileNotRegular(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink("/dev/zero", link); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ path, kind string }{{dir, "a directory"}, {"/dev/zero", "a device"}, {"/dev/null", "a device"}, {link, "a device"}} {
		if _, err := os.Stat(tc.path); err != nil {
			t.Logf("no %s: %v", tc.path, err)
			continue
		}
		err := tokenWithin(t, tc.path, TokenOptions{})
		if want := "token file " + tc.path + " is not a regular file (" + tc.kind; err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: err = %v, want %q", tc.path, err, want)
		}
	}
	tok := makeJWT(t, "linked", time.Time{})
	target := writeTokenFile(t, tok, 0o600)
	ok := filepath.Join(t.TempDir(), "ok")
	if err := os.Symlink(target, ok); err != nil {
		t.Fatal(err)
	}
	src := NewTokenSource(TokenOptions{TokenFile: ok, Getenv: newFakeEnv(nil).Getenv, LookPath: noChainctl})
	mustToken(t, src, tok)
}

// TestTokenFileHuge: a file far larger than any token is refused by its size, not read (nor
// its first MiB sent as a token): a gigabyte (sparse past the first MiB) and one byte past the
// bound.
func TestTokenFileHuge(t *testing.T) {
	t.Parallel()
	for _, size := range []int64{1 << 30, maxTokenBytes + 1} {
		p := filepath.Join(t.TempDir(), "tok")
		mustWrite(t, p, strings.Repeat("a", maxTokenBytes+1), 0o600)
		f, err := os.OpenFile(p, os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		if err := f.Truncate(size); err != nil {
			t.Fatal(err)
		}
		_ = f.Close()
		err = tokenWithin(t, p, TokenOptions{})
		if err == nil || !strings.Contains(err.Error(), "token file "+p+" is larger than a token can be") {
			t.Errorf("%d bytes: err = %v", size, err)
		}
		// Refused by what fstat says, before a byte is read.
		var reads int
		if _, _, err := readOpened(sizedFile{size: size, reads: &reads}); !errors.Is(err, errTooLarge) || reads != 0 {
			t.Errorf("%d bytes: %v after %d reads, want errTooLarge after none", size, err, reads)
		}
	}
}

// sizedFile is an opened regular file of size bytes that counts its reads.
type sizedFile struct {
	size  int64
	reads *int
}

func (f sizedFile) Read(p []byte) (int, error) { *f.reads++; return len(p), nil }
func (f sizedFile) Stat() (fs.FileInfo, error) { return sizedInfo(f.size), nil }

// sizedInfo is what fstat says of a regular file of that many bytes.
type sizedInfo int64

func (i sizedInfo) Name() string       { return "tok" }
func (i sizedInfo) Size() int64        { return int64(i) }
func (i sizedInfo) Mode() fs.FileMode  { return 0o600 }
func (i sizedInfo) ModTime() time.Time { return time.Time{} }
func (i sizedInfo) IsDir() bool        { return false }
func (i sizedInfo) Sys() any           { return nil }

// TestTokenCacheNotRegular: the platform CLI's cache is read the same way; a FIFO there is
// skipped with the reason, and the chain goes on to chainctl.
func TestTokenCacheNotRegular(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := cachePath(dir, testAudience)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	t.Cleanup(func() {
		if f, err := os.OpenFile(path, os.O_RDWR, 0); err == nil {
			_ = f.Close()
		}
	})
	done := make(chan error, 1)
	go func() {
		_, err := NewTokenSource(TokenOptions{Audience: testAudience, CacheDir: dir, LookPath: noChainctl,
			Getenv: newFakeEnv(nil).Getenv}).Token()
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, ErrNoToken) || !strings.Contains(err.Error(), path+" (not a regular file (a named pipe, FIFO?))") {
			t.Fatalf("err = %v", err)
		}
	case <-time.After(patience):
		t.Fatal("Token() blocked on a FIFO in the CLI cache")
	}
}
