//go:build windows

package engine

import (
	"testing"

	"github.com/chainrun/chainrun/internal/testprog"
)

func TestDecodeCapturedMixedUTF16(t *testing.T) {
	tests := []struct {
		name string
		raw  []byte
		want string
		enc  string
	}{
		{"utf-8 only", []byte("héllo\n"), "héllo\n", "utf-8"},
		{"utf-16 only", testprog.UTF16LE("a.txt\r\n日本語.txt\r\n"), "a.txt\r\n日本語.txt\r\n", "utf-16le"},
		{"cjk-only utf-16", testprog.UTF16LE("日本語\r\n"), "日本語\r\n", "utf-16le"},
		{"utf-8 then utf-16", append([]byte("git ✓\n"), testprog.UTF16LE("dir ✓\r\n")...), "git ✓\ndir ✓\r\n", "mixed:utf-8+utf-16le"},
		{"utf-16 then utf-8", append(testprog.UTF16LE("dir\r\n"), []byte("go ✓\n")...), "dir\r\ngo ✓\n", "mixed:utf-16le+utf-8"},
		{"unterminated utf-16 tail", append([]byte("x\n"), testprog.UTF16LE("tail")...), "x\ntail", ""},
	}
	for _, tt := range tests {
		got, enc := decodeCaptured(tt.raw)
		if string(got) != tt.want {
			t.Errorf("%s: got %q want %q", tt.name, got, tt.want)
		}
		if tt.enc != "" && enc != tt.enc {
			t.Errorf("%s: encoding %q want %q", tt.name, enc, tt.enc)
		}
	}
}
