package engine

import (
	"testing"
	"time"
)

// TestTimeReport: TIMEFORMAT's directives as bash 5's print_formatted_time
// prints them, on fixed figures (real 83.4567 s, user 1.2345 s, sys
// 0.0069 s): fractions truncated, not rounded.
func TestTimeReport(t *testing.T) {
	real, user, sys := 83456700*time.Microsecond, 1234500*time.Microsecond, 6900*time.Microsecond
	tests := []struct{ format, want string }{
		{bashTimeFormat, "\nreal\t1m23.456s\nuser\t0m1.234s\nsys\t0m0.006s\n"},
		{posixTimeFormat, "real 83.45\nuser 1.23\nsys 0.00\n"},
		{"%R %E %U %S", "83.456 83.456 1.234 0.006\n"},
		{"%0R|%1R|%2R|%3R|%9R", "83|83.4|83.45|83.456|83.456\n"},
		{"%lR %0lR %1lU %lE", "1m23.456s 1m23s 0m1.2s 1m23.456s\n"},
		{"%P", "1.48\n"},
		{"100%% a %", "100% a %\n"},
		{"", "\n"},
		{"plain", "plain\n"},
	}
	for _, tt := range tests {
		got, err := timeReport(tt.format, real, user, sys)
		if err != nil || got != tt.want {
			t.Errorf("%q: %q, %v; want %q", tt.format, got, err, tt.want)
		}
	}
}

// TestTimeReportErrors: bash refuses a % it does not know and prints its
// error instead of the report; a format that ends inside a directive
// names the NUL byte there, as bash's message does.
func TestTimeReportErrors(t *testing.T) {
	for format, char := range map[string]byte{"%q": 'q', "%3X": 'X', "%l3R": '3', "%ll": 'l', "%3": 0, "%l": 0, "a %P %x": 'x'} {
		_, err := timeReport(format, time.Second, 0, 0)
		fe, ok := err.(*TimeFormatError)
		if !ok || fe.Char != char {
			t.Errorf("%q: %v, want the error naming %q", format, err, char)
		}
	}
	if got := (&TimeFormatError{'q'}).Error(); got != "TIMEFORMAT: `q': invalid format character" {
		t.Errorf("message %q", got)
	}
}

// TestCPUShare: no real time is 0 %, and several processors take the
// share past 100 %.
func TestCPUShare(t *testing.T) {
	if got := seconds(cpuShare(0, time.Second), 2, false); got != "0.00" {
		t.Errorf("no real time: %s", got)
	}
	if got := seconds(cpuShare(time.Second, 1500*time.Millisecond), 2, false); got != "150.00" {
		t.Errorf("two processors: %s", got)
	}
}
