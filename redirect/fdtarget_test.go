package redirect

import "testing"

func TestStdStream(t *testing.T) {
	for _, tt := range []struct {
		target string
		fd     int
		ok     bool
	}{
		{"/dev/stdin", 0, true},
		{"/dev/stdout", 1, true},
		{"/dev/stderr", 2, true},
		{"/dev/fd/0", 0, true},
		{"/dev/fd/9", 9, true},
		{"/dev/fd/10", 10, true},
		{"/dev/fd/99999999999999999999", 10, true},
		{"/proc/self/fd/3", 3, true},
		{"/proc/thread-self/fd/1", 1, true},
		{"//dev/./fd//1", 1, true},
		{"/dev/fd/01", 0, false},
		{"/dev/fd/", 0, false},
		{"/dev/fd/1x", 0, false},
		{"dev/fd/1", 0, false},
		{"/proc/1/fd/1", 0, false},
		{"/dev/null", 0, false},
	} {
		t.Run(tt.target, func(t *testing.T) {
			fd, ok := StdStream(tt.target)
			if ok != tt.ok || ok && fd != tt.fd {
				t.Errorf("StdStream(%q) = %d, %v; want %d, %v", tt.target, fd, ok, tt.fd, tt.ok)
			}
			if err := CheckTarget(tt.target); (err != nil) != (ok && fd > 9) {
				t.Errorf("CheckTarget(%q) = %v", tt.target, err)
			}
		})
	}
}
