package testprog

import "unicode/utf16"

// UTF16LE encodes s as UTF-16LE bytes, as Windows programs (cmd.exe
// built-ins run with /u, PowerShell) write it: the input the decoding
// tests feed on every OS.
func UTF16LE(s string) []byte {
	var b []byte
	for _, u := range utf16.Encode([]rune(s)) {
		b = append(b, byte(u), byte(u>>8))
	}
	return b
}
