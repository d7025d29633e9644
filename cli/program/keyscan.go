package program

// ctrl+c must end canopy at once whatever is queued before it. In raw mode
// it is not a signal but a key, and Bubble Tea reads the terminal only as
// fast as its event loop takes the keys: behind 10⁵ keys typed into a
// filter it waited minutes. So the terminal is read ahead of Bubble Tea
// (keyReader) and every byte is scanned for ctrl+c as it arrives, in each
// of the forms a terminal sends it; the keys themselves go on to Bubble
// Tea unchanged.

import (
	"errors"
	"io"
	"sync"
	"time"

	"github.com/muesli/cancelreader"
)

// Bytes read ahead that Bubble Tea has not taken yet. Past softPending,
// typed text (not escape sequences, nor what is inside a bracketed paste)
// is dropped: it is a flood the screen cannot follow anyway, and dropping
// whole characters leaves every key and sequence after them intact. Past
// hardPending everything is dropped. Either way ctrl+c is still seen.
const (
	softPending = 1 << 20
	hardPending = 16 << 20
)

// scanState is where the scanner is in the byte stream.
type scanState int

const (
	ground scanState = iota
	escape           // after ESC
	csi              // in a control sequence (ESC [ … final byte)
	ss3              // after ESC O: one more byte
	str              // in a string (OSC, DCS, APC, PM, SOS) until BEL or ST
	strEsc           // ESC inside a string: \ ends it
)

// maxParams bounds what a control sequence's parameters are kept for
// (ctrl+c's are a few bytes); a longer sequence is not ctrl+c.
const maxParams = 32

// ctrlScanner finds ctrl+c in terminal input: the byte 0x03 outside a
// bracketed paste, the kitty keyboard protocol's CSI 99;5u (Bubble Tea
// turns on its disambiguation) and xterm's modifyOtherKeys CSI 27;5;99~.
type ctrlScanner struct {
	state  scanState
	params []byte // of the control sequence being read
	paste  bool   // inside a bracketed paste: 0x03 there is text
}

// scan feeds one byte; it reports whether the byte ends a ctrl+c, and
// whether it is typed text outside any sequence or paste (which a reader
// with too much pending may drop).
func (s *ctrlScanner) scan(b byte) (ctrlC, text bool) {
	switch s.state {
	case ground:
		switch {
		case b == 0x1b:
			s.state = escape
		case b == 0x03:
			return !s.paste, false
		case b >= 0x20 && b != 0x7f:
			return false, !s.paste
		}
	case escape:
		switch b {
		case '[':
			s.state, s.params = csi, s.params[:0]
		case 'O':
			s.state = ss3
		case ']', 'P', '_', '^', 'X':
			s.state = str
		case 0x1b:
		default:
			s.state = ground // alt+key, or a lone ESC before it
		}
	case ss3:
		s.state = ground
	case csi:
		if b >= 0x40 && b <= 0x7e {
			s.state = ground
			return s.endCSI(b), false
		}
		if len(s.params) < maxParams {
			s.params = append(s.params, b)
		}
	case str:
		switch b {
		case 0x07:
			s.state = ground
		case 0x1b:
			s.state = strEsc
		}
	case strEsc:
		s.state = str
		if b == '\\' {
			s.state = ground
		}
	}
	return false, false
}

// endCSI takes a control sequence's final byte: it follows bracketed
// pastes and reports whether the sequence is ctrl+c.
func (s *ctrlScanner) endCSI(final byte) bool {
	p := string(s.params)
	switch {
	case final == '~' && p == "200":
		s.paste = true
	case final == '~' && p == "201":
		s.paste = false
	case s.paste:
	case final == 'u':
		// kitty: key[:alternates];modifiers[:event]: c with ctrl alone
		// (locks aside), pressed or repeated, not released.
		key, rest := cut(p, ';')
		key, _ = cut(key, ':')
		mods, event := cut(rest, ':')
		return key == "99" && ctrlOnly(mods) && (event == "" || event == "1" || event == "2")
	case final == '~':
		// modifyOtherKeys: 27;modifiers;key.
		first, rest := cut(p, ';')
		mods, key := cut(rest, ';')
		return first == "27" && key == "99" && ctrlOnly(mods)
	}
	return false
}

// ctrlOnly reports whether a modifier parameter (1 + a bit mask) is ctrl
// and nothing else but caps or num lock.
func ctrlOnly(mods string) bool {
	n := 0
	for _, c := range []byte(mods) {
		if c < '0' || c > '9' || n > 1000 {
			return false
		}
		n = n*10 + int(c-'0')
	}
	const ctrl, locks = 4, 64 | 128
	return n >= 1 && (n-1)&^locks == ctrl
}

// cut is strings.Cut on a byte, keeping the rest empty when sep is absent.
func cut(s string, sep byte) (before, after string) {
	for i := 0; i < len(s); i++ {
		if s[i] == sep {
			return s[:i], s[i+1:]
		}
	}
	return s, ""
}

// pending is what was read ahead and not yet taken, with the scanner that
// saw it. It is safe for one reader and one writer.
type pending struct {
	mu        sync.Mutex
	ready     *sync.Cond
	buf       []byte
	err       error // the terminal's read error, given once buf is empty
	scan      ctrlScanner
	dropped   int
	interrupt func() // called (from the reading goroutine) on ctrl+c
	said      bool   // interrupt was called
	// paused: another program reads the terminal; a read with nothing
	// pending returns empty after pausedPoll, so that Bubble Tea's reader,
	// once cancelled, sees it and stops.
	paused bool
}

// pausedPoll is how often a read waiting while paused returns.
const pausedPoll = 5 * time.Millisecond

// pause sets whether another program reads the terminal.
func (p *pending) pause(on bool) {
	p.mu.Lock()
	p.paused = on
	p.ready.Broadcast()
	p.mu.Unlock()
}

func newPending(interrupt func()) *pending {
	p := &pending{interrupt: interrupt}
	p.ready = sync.NewCond(&p.mu)
	return p
}

// add scans and keeps what the terminal gave; it calls interrupt on the
// first ctrl+c.
func (p *pending) add(chunk []byte) {
	p.mu.Lock()
	ctrlC := false
	for _, b := range chunk {
		c, text := p.scan.scan(b)
		ctrlC = ctrlC || c
		if n := len(p.buf); n >= hardPending || n >= softPending && text {
			p.dropped++
			continue
		}
		p.buf = append(p.buf, b)
	}
	call := ctrlC && !p.said
	p.said = p.said || ctrlC
	p.ready.Broadcast()
	p.mu.Unlock()
	if call {
		p.interrupt()
	}
}

// fail records the read error that ends the input.
func (p *pending) fail(err error) {
	p.mu.Lock()
	if p.err == nil {
		p.err = err
	}
	p.ready.Broadcast()
	p.mu.Unlock()
}

// read gives what is pending, waiting for some; after the error, the
// error (io.EOF when the reader was closed).
func (p *pending) read(out []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for len(p.buf) == 0 && p.err == nil {
		if p.paused {
			p.mu.Unlock()
			time.Sleep(pausedPoll)
			p.mu.Lock()
			if len(p.buf) == 0 && p.err == nil {
				return 0, nil
			}
			continue
		}
		p.ready.Wait()
	}
	if len(p.buf) == 0 {
		return 0, p.err
	}
	n := copy(out, p.buf)
	p.buf = p.buf[n:]
	if len(p.buf) == 0 {
		p.buf = nil // let a flood's buffer go
	}
	return n, nil
}

// pump reads r into p until r fails.
func (p *pending) pump(r io.Reader) {
	chunk := make([]byte, 4096)
	for {
		n, err := r.Read(chunk)
		if n > 0 {
			p.add(chunk[:n])
		}
		if err != nil {
			if !errors.Is(err, cancelreader.ErrCanceled) { // a pause is no end
				p.fail(io.EOF)
			}
			return
		}
	}
}
