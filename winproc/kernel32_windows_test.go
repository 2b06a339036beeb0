package winproc

import (
	"os"
	"testing"
)

func TestPipeAvailable(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if n, ok := PipeAvailable(r); n != 0 || !ok {
		t.Fatalf("empty pipe: PipeAvailable = %d, %v; want 0, true", n, ok)
	}
	if _, err := w.Write([]byte("hello")); err != nil {
		t.Fatal(err)
	}
	if n, ok := PipeAvailable(r); n != 5 || !ok {
		t.Fatalf("after writing 5 bytes: PipeAvailable = %d, %v; want 5, true", n, ok)
	}
	buf := make([]byte, 2)
	if _, err := r.Read(buf); err != nil {
		t.Fatal(err)
	}
	if n, ok := PipeAvailable(r); n != 3 || !ok {
		t.Fatalf("after reading 2 bytes: PipeAvailable = %d, %v; want 3, true", n, ok)
	}
	r.Close()
	if n, ok := PipeAvailable(r); n != 0 || ok {
		t.Fatalf("closed pipe: PipeAvailable = %d, %v; want 0, false", n, ok)
	}
}

func TestCodePageFunctions(t *testing.T) {
	if GetOEMCP() == 0 {
		t.Fatal("GetOEMCP() = 0")
	}
	if !IsValidCodePage(437) || IsValidCodePage(0) {
		t.Fatalf("IsValidCodePage(437) = %v, IsValidCodePage(0) = %v; want true, false", IsValidCodePage(437), IsValidCodePage(0))
	}
	if !IsValidCodePage(932) {
		t.Skip("code page 932 is not installed")
	}
	if !IsDBCSLeadByteEx(932, 0x81) || IsDBCSLeadByteEx(932, 'A') || IsDBCSLeadByteEx(437, 0x81) {
		t.Fatal("IsDBCSLeadByteEx disagrees with code pages 932 and 437")
	}
}
