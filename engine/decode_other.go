//go:build !windows

package engine

// decodeCaptured returns captured output as text. Outside Windows programs
// write UTF-8 (or raw bytes), so it is the identity and names no encoding.
func decodeCaptured(raw []byte) (text []byte, encoding string) { return raw, "" }
