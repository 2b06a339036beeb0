package tools

import (
	"fmt"
	"sort"
	"strings"
)

// opt is one option as read: its short letter, or its long name when it
// has no short form, and its value.
type opt struct {
	key, val string
}

// UsageError is an option a tool does not accept, or one missing its
// value: the real program would print its usage and exit 2.
type UsageError struct {
	Option string // as written: "-Z", "--color"
	Reason string // "not supported", "requires an argument", "ambiguous"
}

func (e *UsageError) Error() string { return "option " + e.Option + " " + e.Reason }

// parse reads args as getopt_long does: options and operands in any order
// (until "--", or the first operand for InOrder tools), short options
// clustered, a value attached or in the next word, long options by any
// unambiguous prefix.
func parse(s *Spec, args []string) (opts []opt, operands []string, err error) {
	if s.Raw {
		return nil, args, nil
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return opts, append(operands, args[i+1:]...), nil
		case strings.HasPrefix(a, "--"):
			var o opt
			o, i, err = parseLong(s, args, i)
			if err != nil {
				return nil, nil, err
			}
			opts = append(opts, o)
		case len(a) > 1 && a[0] == '-':
			var os []opt
			os, i, err = parseShort(s, args, i)
			if err != nil {
				return nil, nil, err
			}
			opts = append(opts, os...)
		case s.InOrder:
			return opts, append(operands, args[i:]...), nil
		default:
			operands = append(operands, a)
		}
	}
	return opts, operands, nil
}

// parseShort reads the cluster args[i]: "-rn", "-n5", "-n 5", and for
// head and tail "-20".
func parseShort(s *Spec, args []string, i int) ([]opt, int, error) {
	a := args[i]
	if s.Digits && a[1] >= '0' && a[1] <= '9' {
		return []opt{{key: "n", val: a[1:]}}, i, nil
	}
	var opts []opt
	for j := 1; j < len(a); j++ {
		c := a[j : j+1]
		switch {
		case strings.Contains(s.Flags, c):
			opts = append(opts, opt{key: c})
		case strings.Contains(s.Values, c):
			if j+1 < len(a) {
				return append(opts, opt{key: c, val: a[j+1:]}), i, nil
			}
			if i+1 >= len(args) {
				return nil, i, &UsageError{Option: "-" + c, Reason: "requires an argument"}
			}
			return append(opts, opt{key: c, val: args[i+1]}), i + 1, nil
		default:
			return nil, i, &UsageError{Option: "-" + c, Reason: "not supported"}
		}
	}
	return opts, i, nil
}

// parseLong reads "--name", "--name=v" or "--name v", name being any
// unambiguous prefix of a long option.
func parseLong(s *Spec, args []string, i int) (opt, int, error) {
	name, val, hasVal := strings.Cut(args[i][2:], "=")
	full, takes, err := s.long(name)
	if err != nil {
		return opt{}, i, err
	}
	key := full
	if short := s.LongFlags[full] + s.LongValues[full]; short != "" {
		key = short
	}
	switch {
	case !takes && hasVal:
		return opt{}, i, &UsageError{Option: "--" + full, Reason: "doesn't allow an argument"}
	case takes && !hasVal:
		if i+1 >= len(args) {
			return opt{}, i, &UsageError{Option: "--" + full, Reason: "requires an argument"}
		}
		return opt{key: key, val: args[i+1]}, i + 1, nil
	}
	return opt{key: key, val: val}, i, nil
}

// long finds the long option name abbreviates.
func (s *Spec) long(name string) (full string, takesValue bool, err error) {
	var found []string
	for _, m := range []map[string]string{s.LongFlags, s.LongValues} {
		for n := range m {
			if n == name {
				_, v := s.LongValues[n]
				return n, v, nil
			}
			if strings.HasPrefix(n, name) {
				found = append(found, n)
			}
		}
	}
	sort.Strings(found)
	switch len(found) {
	case 0:
		return "", false, &UsageError{Option: "--" + name, Reason: "not supported"}
	case 1:
		_, v := s.LongValues[found[0]]
		return found[0], v, nil
	}
	return "", false, &UsageError{Option: "--" + name, Reason: fmt.Sprintf("is ambiguous (%s)", strings.Join(found, ", "))}
}

// has reports whether option key was given.
func has(opts []opt, key string) bool {
	for _, o := range opts {
		if o.key == key {
			return true
		}
	}
	return false
}

// last returns the value of the last option key.
func last(opts []opt, key string) (string, bool) {
	v, ok := "", false
	for _, o := range opts {
		if o.key == key {
			v, ok = o.val, true
		}
	}
	return v, ok
}
