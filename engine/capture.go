package engine

import (
	"io"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// capBuf keeps the first half and the last half of a stream of at most
// max bytes each way, and counts the bytes in between. Its memory never
// exceeds max whatever the stream's size: the tail is a ring buffer.
type capBuf struct {
	headCap int
	tailCap int
	head    []byte
	ring    []byte // tailCap bytes once the head is full
	rpos    int    // where the next tail byte goes
	rlen    int    // valid bytes in ring
	total   int64
}

func newCapBuf(max int) *capBuf {
	h := max / 2
	return &capBuf{headCap: h, tailCap: max - h}
}

func (c *capBuf) Write(p []byte) {
	c.total += int64(len(p))
	if n := c.headCap - len(c.head); n > 0 {
		n = min(n, len(p))
		c.head = append(c.head, p[:n]...)
		p = p[n:]
	}
	if len(p) == 0 || c.tailCap == 0 {
		return
	}
	if c.ring == nil {
		c.ring = make([]byte, c.tailCap)
	}
	if len(p) >= c.tailCap {
		copy(c.ring, p[len(p)-c.tailCap:])
		c.rpos, c.rlen = 0, c.tailCap
		return
	}
	n := copy(c.ring[c.rpos:], p)
	copy(c.ring, p[n:])
	c.rpos = (c.rpos + len(p)) % c.tailCap
	c.rlen = min(c.rlen+len(p), c.tailCap)
}

// bytes returns head and tail joined, and how many bytes were dropped
// between them.
func (c *capBuf) bytes() ([]byte, int64) {
	out := make([]byte, 0, len(c.head)+c.rlen)
	out = append(out, c.head...)
	if c.rlen > 0 {
		start := (c.rpos - c.rlen + c.tailCap) % c.tailCap
		if start+c.rlen <= c.tailCap {
			out = append(out, c.ring[start:start+c.rlen]...)
		} else {
			out = append(out, c.ring[start:]...)
			out = append(out, c.ring[:c.rpos]...)
		}
	}
	return out, c.total - int64(len(c.head)) - int64(c.rlen)
}

// sink is where the chain's stdout (or stderr) goes: the file children get
// as that fd, and, when we must see the bytes, the read end of a pipe that
// a goroutine drains into the capture and the live writer.
type sink struct {
	w    *os.File // what children get
	ownW bool     // w is ours to close (a pipe end or the null device)
	r    *os.File // read end, nil when children write straight to w
	buf  *capBuf  // nil when not capturing
	live io.Writer
	done chan struct{}
	read atomic.Int64
	// busy is set by the drain before each read of the pipe and cleared
	// when the pipe is empty, so written can tell when no byte is between
	// the pipe and the read count.
	busy atomic.Bool
	mu   sync.Mutex // guards buf and live once the drain runs
}

// Drain buffers: small ones for the usual few lines, large ones once a
// read fills the small buffer (a program streaming megabytes).
var (
	smallBufs = sync.Pool{New: func() any { b := make([]byte, 16<<10); return &b }}
	largeBufs = sync.Pool{New: func() any { b := make([]byte, 256<<10); return &b }}
)

// newSink prepares one output stream. Output only goes through our process
// when it is captured or the live writer is not a file.
func newSink(capture bool, max int, live io.Writer) (*sink, error) {
	s := &sink{live: live}
	if !capture {
		if live == nil {
			f, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
			if err != nil {
				return nil, err
			}
			s.w, s.ownW = f, true
			return s, nil
		}
		if f, ok := live.(*os.File); ok {
			s.w = f
			return s, nil
		}
	} else {
		s.buf = newCapBuf(max)
	}
	r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	if capture {
		growPipe(w)
	}
	s.r, s.w, s.ownW = r, w, true
	s.done = make(chan struct{})
	go s.drain()
	return s, nil
}

func (s *sink) drain() {
	defer close(s.done)
	drainPipe(s)
}

// buffers hands the drain a small buffer first and a large one once a
// read fills the small one (a program streaming megabytes).
type buffers struct {
	pool *sync.Pool
	bp   *[]byte
}

func newBuffers() *buffers { return &buffers{pool: &smallBufs, bp: smallBufs.Get().(*[]byte)} }

func (b *buffers) get() []byte { return *b.bp }

// filled notes a read of n bytes, moving to a large buffer when the small
// one was filled.
func (b *buffers) filled(n int) {
	if n == len(*b.bp) && b.pool == &smallBufs {
		b.pool.Put(b.bp)
		b.pool, b.bp = &largeBufs, largeBufs.Get().(*[]byte)
	}
}

func (b *buffers) release() { b.pool.Put(b.bp) }

// consume hands bytes read from the pipe to the capture and the live
// writer.
func (s *sink) consume(p []byte) {
	s.mu.Lock() // a handoff (Options.Detach) may swap buf and live
	defer s.mu.Unlock()
	if s.buf != nil {
		s.buf.Write(p)
	}
	if s.live != nil {
		if _, err := s.live.Write(p); err != nil {
			s.live = nil // a failing UI must not stop the chain
		}
	}
}

// drainPlain reads the pipe with blocking reads until EOF or an error.
func drainPlain(s *sink) {
	bufs := newBuffers()
	defer bufs.release()
	for {
		b := bufs.get()
		n, err := s.r.Read(b)
		if n > 0 {
			s.read.Add(int64(n))
			s.consume(b[:n])
			bufs.filled(n)
		}
		if err != nil {
			return
		}
	}
}

// written counts the bytes children have written so far: what the drain
// has read plus what still waits in the pipe. It waits (briefly) for a
// moment when the drain is between reads, so that no byte is in flight
// between the two counts; a drain kept busy by a writer left running
// yields an approximate count after 10 ms.
func (s *sink) written() int64 {
	if s.r == nil {
		return 0
	}
	var deadline time.Time
	for spin := 0; ; spin++ {
		if !s.busy.Load() {
			r := s.read.Load()
			p := pipePending(s.r)
			if !s.busy.Load() && s.read.Load() == r {
				return r + p
			}
		}
		select {
		case <-s.done:
			return s.read.Load()
		default:
		}
		if spin < 100 {
			runtime.Gosched()
			continue
		}
		if deadline.IsZero() {
			deadline = time.Now().Add(10 * time.Millisecond)
		} else if time.Now().After(deadline) {
			return s.read.Load() + pipePending(s.r)
		}
		time.Sleep(20 * time.Microsecond)
	}
}

// close closes our write end and waits for the drain to see EOF, at most
// wait; then it closes the read end, which ends the drain anyway.
func (s *sink) close(wait time.Duration) {
	if s.ownW {
		s.w.Close()
	}
	if s.r == nil {
		return
	}
	t := time.NewTimer(wait)
	select {
	case <-s.done:
	case <-t.C:
	}
	t.Stop()
	s.r.Close()
	<-s.done
}

// lockedWriter serialises writes when one live writer serves both streams.
type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
