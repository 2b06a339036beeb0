package engine

import (
	"fmt"
	"strings"
	"time"
)

// The time keyword's report formats: bash's default TIMEFORMAT, and the
// one time -p prints whatever TIMEFORMAT says.
const (
	bashTimeFormat  = "\nreal\t%3lR\nuser\t%3lU\nsys\t%3lS"
	posixTimeFormat = "real %2R\nuser %2U\nsys %2S"
)

// TimeFormatError is a TIMEFORMAT with a % bash does not know: bash then
// prints this error instead of the report.
type TimeFormatError struct{ Char byte }

func (e *TimeFormatError) Error() string {
	return fmt.Sprintf("TIMEFORMAT: `%c': invalid format character", e.Char)
}

// timeReport is bash's report of a timed pipeline (print_formatted_time):
// format with %[p][l]R (or E), U and S replaced by the real, user and
// system time (p digits after the point, 0-3, default 3, above 3 read as
// 3, truncated; l as MMmSS.FFs), %P by the CPU share in percent, %% by %,
// a % at the end kept, and a newline after it all. Any other % is an
// error, reported instead of the report.
func timeReport(format string, real, user, sys time.Duration) (string, error) {
	var b strings.Builder
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' || i+1 == len(format) {
			b.WriteByte(c)
			continue
		}
		i++
		switch c = format[i]; {
		case c == '%':
			b.WriteByte('%')
		case c == 'P':
			b.WriteString(seconds(cpuShare(real, user+sys), 2, false))
		case strings.IndexByte("RESUl", c) >= 0 || (c >= '0' && c <= '9'):
			prec, long := 3, false
			if c >= '0' && c <= '9' {
				prec = min(int(c-'0'), 3)
				if i++; i == len(format) {
					return "", &TimeFormatError{0}
				}
			}
			if format[i] == 'l' {
				if long = true; i+1 == len(format) {
					return "", &TimeFormatError{0}
				}
				i++
			}
			var d time.Duration
			switch format[i] {
			case 'R', 'E':
				d = real
			case 'U':
				d = user
			case 'S':
				d = sys
			default:
				return "", &TimeFormatError{format[i]}
			}
			b.WriteString(seconds(d.Milliseconds(), prec, long))
		default:
			return "", &TimeFormatError{c}
		}
	}
	b.WriteByte('\n')
	return b.String(), nil
}

// seconds writes ms milliseconds as bash's mkfmt does: [M]m then seconds,
// prec digits of the fraction truncated, an s after the long form.
func seconds(ms int64, prec int, long bool) string {
	var b strings.Builder
	sec := ms / 1000
	if long {
		fmt.Fprintf(&b, "%dm", sec/60)
		sec %= 60
	}
	fmt.Fprintf(&b, "%d", sec)
	if prec > 0 {
		frac := fmt.Sprintf("%03d", ms%1000)
		b.WriteString("." + frac[:prec])
	}
	if long {
		b.WriteByte('s')
	}
	return b.String()
}

// cpuShare is bash's CPU percentage as milliseconds of a seconds figure
// (so seconds prints it with two decimals): (user+sys)/real in hundredths
// of a percent, truncated, 0 when no real time passed. Several processors
// can take it past 100.
func cpuShare(real, cpu time.Duration) int64 {
	if real <= 0 {
		return 0
	}
	share := int64(float64(cpu) * 10000 / float64(real)) // hundredths of a percent
	return share/100*1000 + share%100*10
}
