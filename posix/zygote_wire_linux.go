package posix

import (
	"encoding/binary"
	"errors"
	"io"
	"syscall"

	"golang.org/x/sys/unix"
)

// What chainrun and the zygote say to each other over their stream
// socket. A request is a 4-byte length and that many bytes: the flags,
// the group, the terminal's index among the files, the parent-death
// signal, the files (a byte each: 1 when present; the present ones travel
// in order as SCM_RIGHTS with the first bytes), then path, directory,
// argv and environment as counted strings. A reply is the child's pid
// and an errno (the pid of a child whose exec failed too, for chainrun to
// reap). When it starts, the zygote sends a counted message: empty when
// it is ready, else why it could not carve.
type spawnRequest struct {
	setsid, setpgid, fg bool
	pgid, ctty          int
	pdeathsig           int
	present             []bool
	path, dir           string
	argv, env           []string
}

const (
	reqSetsid = 1 << iota
	reqSetpgid
	reqForeground
)

// maxPassedFds is the kernel's limit of fds in one SCM_RIGHTS message.
const maxPassedFds = 253

var native = binary.NativeEndian

type wireWriter struct{ b []byte }

func (w *wireWriter) u32(v int) { w.b = native.AppendUint32(w.b, uint32(v)) }

func (w *wireWriter) str(s string) { w.u32(len(s)); w.b = append(w.b, s...) }

func (w *wireWriter) strs(ss []string) {
	w.u32(len(ss))
	for _, s := range ss {
		w.str(s)
	}
}

// encode lays r out, length first.
func (r *spawnRequest) encode() []byte {
	w := wireWriter{make([]byte, 4, 256)}
	w.u32(flagIf(r.setsid, reqSetsid) | flagIf(r.setpgid, reqSetpgid) | flagIf(r.fg, reqForeground))
	for _, v := range []int{r.pgid, r.ctty, r.pdeathsig, len(r.present)} {
		w.u32(v)
	}
	for _, p := range r.present {
		w.b = append(w.b, byte(flagIf(p, 1)))
	}
	w.str(r.path)
	w.str(r.dir)
	w.strs(r.argv)
	w.strs(r.env)
	native.PutUint32(w.b, uint32(len(w.b)-4))
	return w.b
}

func flagIf(on bool, bit int) int {
	if on {
		return bit
	}
	return 0
}

var errShort = errors.New("sandbox zygote: short request")

type wireReader struct {
	b   []byte
	err error
}

func (r *wireReader) u32() int {
	if len(r.b) < 4 {
		r.err = errShort
		return 0
	}
	v := native.Uint32(r.b)
	r.b = r.b[4:]
	return int(int32(v))
}

func (r *wireReader) str() string {
	n := r.u32()
	if n < 0 || n > len(r.b) {
		r.err = errShort
		return ""
	}
	s := string(r.b[:n])
	r.b = r.b[n:]
	return s
}

func (r *wireReader) strs() []string {
	n := r.u32()
	if n < 0 || n > len(r.b) {
		r.err = errShort
		return nil
	}
	out := make([]string, n)
	for i := range out {
		out[i] = r.str()
	}
	return out
}

// decodeRequest reads what encode wrote (without its length).
func decodeRequest(b []byte) (*spawnRequest, error) {
	r := wireReader{b: b}
	flags := r.u32()
	q := &spawnRequest{setsid: flags&reqSetsid != 0, setpgid: flags&reqSetpgid != 0, fg: flags&reqForeground != 0}
	q.pgid, q.ctty, q.pdeathsig = r.u32(), r.u32(), r.u32()
	n := r.u32()
	if n < 0 || n > len(r.b) {
		return nil, errShort
	}
	for _, c := range r.b[:n] {
		q.present = append(q.present, c == 1)
	}
	r.b = r.b[n:]
	q.path, q.dir = r.str(), r.str()
	q.argv, q.env = r.strs(), r.strs()
	return q, r.err
}

// sendRequest writes msg with fds attached to its first bytes.
func sendRequest(sock int, msg []byte, fds []int) error {
	var oob []byte
	if len(fds) > 0 {
		oob = unix.UnixRights(fds...)
	}
	n, err := unix.SendmsgN(sock, msg, oob, nil, 0)
	for err == nil && n < len(msg) {
		var m int
		m, err = unix.Write(sock, msg[n:])
		n += m
	}
	return err
}

// readRequest reads one request and the fds that came with it (marked
// close-on-exec); io.EOF when chainrun has closed the socket.
func readRequest(sock int) (*spawnRequest, []int, error) {
	var head [4]byte
	oob := make([]byte, unix.CmsgSpace(maxPassedFds*4))
	n, oobn, _, _, err := unix.Recvmsg(sock, head[:], oob, unix.MSG_CMSG_CLOEXEC)
	for err == unix.EINTR {
		n, oobn, _, _, err = unix.Recvmsg(sock, head[:], oob, unix.MSG_CMSG_CLOEXEC)
	}
	if err != nil {
		return nil, nil, err
	}
	if n == 0 {
		return nil, nil, io.EOF
	}
	fds, err := parseRights(oob[:oobn])
	if err == nil {
		err = readFull(sock, head[n:])
	}
	body := make([]byte, native.Uint32(head[:]))
	if err == nil {
		err = readFull(sock, body)
	}
	if err != nil {
		closeFds(fds)
		return nil, nil, err
	}
	q, err := decodeRequest(body)
	return q, fds, err
}

func parseRights(oob []byte) ([]int, error) {
	msgs, err := unix.ParseSocketControlMessage(oob)
	if err != nil {
		return nil, err
	}
	var fds []int
	for _, m := range msgs {
		got, err := unix.ParseUnixRights(&m)
		if err != nil {
			return fds, err
		}
		fds = append(fds, got...)
	}
	return fds, nil
}

// readFull reads len(b) bytes from fd; io.ErrUnexpectedEOF if it ends first.
func readFull(fd int, b []byte) error {
	for len(b) > 0 {
		n, err := unix.Read(fd, b)
		switch {
		case err == unix.EINTR:
			continue
		case err != nil:
			return err
		case n == 0:
			return io.ErrUnexpectedEOF
		}
		b = b[n:]
	}
	return nil
}

func closeFds(fds []int) {
	for _, fd := range fds {
		unix.Close(fd)
	}
}

// writeReply and readReply carry the answer to a request.
func writeReply(sock, pid int, errno syscall.Errno) error {
	var b [16]byte
	native.PutUint64(b[:], uint64(pid))
	native.PutUint64(b[8:], uint64(errno))
	_, err := unix.Write(sock, b[:])
	return err
}

func readReply(sock int) (int, syscall.Errno, error) {
	var b [16]byte
	if err := readFull(sock, b[:]); err != nil {
		return 0, 0, err
	}
	return int(native.Uint64(b[:])), syscall.Errno(native.Uint64(b[8:])), nil
}

// writeHello and readHello carry the zygote's first word: "" when it is
// ready, else why it is not.
func writeHello(sock int, why string) {
	w := wireWriter{}
	w.str(why)
	unix.Write(sock, w.b)
}

func readHello(sock int) error {
	var n [4]byte
	if err := readFull(sock, n[:]); err != nil {
		return err
	}
	why := make([]byte, native.Uint32(n[:]))
	if err := readFull(sock, why); err != nil {
		return err
	}
	if len(why) > 0 {
		return errors.New(string(why))
	}
	return nil
}
