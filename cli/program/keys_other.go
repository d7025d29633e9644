//go:build !unix

package program

// keyReader is not available here: Bubble Tea reads the console itself.
type keyReader struct{}

func openKeys(func()) *keyReader { return nil }

func (k *keyReader) Read([]byte) (int, error)  { return 0, nil }
func (k *keyReader) Write([]byte) (int, error) { return 0, nil }
func (k *keyReader) Fd() uintptr               { return 0 }
func (k *keyReader) Close() error              { return nil }
func (k *keyReader) Pause()                    {}
func (k *keyReader) Resume()                   {}
