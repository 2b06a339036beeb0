package winconsole

import (
	"bytes"
	"testing"

	"github.com/chainrun/chainrun/internal/testprog"
)

func benchDecode(b *testing.B, raw []byte, cp CodePage) {
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	for b.Loop() {
		Decode(raw, cp)
	}
}

// Output of 1 MiB in 80-byte lines.
func BenchmarkDecodeASCII(b *testing.B) {
	benchDecode(b, bytes.Repeat([]byte("ok   github.com/chainrun/chainrun/engine   0.123s   coverage: 81.2% of stmts\n"), 13000), mustCP(b, 437))
}

func BenchmarkDecodeUTF8(b *testing.B) {
	benchDecode(b, bytes.Repeat([]byte("Überprüfung läuft … ✓ 完成 — ok ok ok ok ok ok ok ok ok ok ok ok ok ok\n"), 13000), mustCP(b, 437))
}

func BenchmarkDecodeCP437(b *testing.B) {
	benchDecode(b, bytes.Repeat([]byte(" Le volume de l'unit\x82 C n'a pas de nom. R\x82pertoire de C:\\work\\caf\x82  \n"), 13000), mustCP(b, 437))
}

func BenchmarkDecodeUTF16(b *testing.B) {
	benchDecode(b, bytes.Repeat(testprog.UTF16LE(" Volume in drive C has no label.   Directory of C:\\work\r\n"), 9000), mustCP(b, 437))
}
