package mcpserver

import "sync"

// jobLog keeps a background job's output, stdout and stderr in arrival
// order, in bounded memory: the first half of its size and the last half,
// however much the job prints, with offsets counted over everything it
// printed so a reader can ask for what is new since its last read.
type jobLog struct {
	mu      sync.Mutex
	headCap int
	tailCap int
	head    []byte
	tail    []byte // the last tailCap bytes are kept; at most 2*tailCap held
	total   int64
}

func newJobLog(size int) *jobLog {
	return &jobLog{headCap: size / 2, tailCap: size - size/2}
}

func (l *jobLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := len(p)
	l.total += int64(n)
	if room := l.headCap - len(l.head); room > 0 {
		k := min(room, len(p))
		l.head = append(l.head, p[:k]...)
		p = p[k:]
	}
	if len(p) >= l.tailCap {
		l.tail = append(l.tail[:0], p[len(p)-l.tailCap:]...)
		return n, nil
	}
	l.tail = append(l.tail, p...)
	if len(l.tail) > 2*l.tailCap {
		l.tail = append(l.tail[:0], l.tail[len(l.tail)-l.tailCap:]...)
	}
	return n, nil
}

// read returns what is kept of the output from offset off on, as the part
// from the head and the part from the tail, the bytes after off that are
// no longer kept (between the two parts), and the offset of the end.
func (l *jobLog) read(off int64) (parts [2][]byte, omitted, next int64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	off = min(off, l.total)
	headEnd := int64(len(l.head))
	tail := l.tail[max(0, len(l.tail)-l.tailCap):]
	tailStart := l.total - int64(len(tail))
	if off < headEnd {
		parts[0] = append([]byte(nil), l.head[off:]...)
	}
	from := max(off, tailStart)
	parts[1] = append([]byte(nil), tail[from-tailStart:]...)
	omitted = max(0, tailStart-max(off, headEnd))
	return parts, omitted, l.total
}

// size is how much the job has printed.
func (l *jobLog) size() int64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.total
}
