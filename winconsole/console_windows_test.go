package winconsole

import (
	"testing"

	"golang.org/x/sys/windows"
)

func TestSnapshot(t *testing.T) {
	c := Snapshot()
	t.Logf("%+v", c)
	if c.ACP == 0 || c.OEMCP == 0 {
		t.Fatalf("Snapshot() = %+v; want ACP and OEMCP", c)
	}
	if c.HasConsole != (c.OutputCP != 0) {
		t.Fatalf("Snapshot() = %+v: HasConsole disagrees with OutputCP", c)
	}
	if cp := CodePageByNumber(int(c.OEMCP)); c.OEMCP != 65001 && cp == nil {
		t.Fatalf("no decoder for the OEM code page %d", c.OEMCP)
	}
	restore, err := EnableUTF8()
	if err != nil {
		t.Fatal(err)
	}
	defer restore()
	if c.HasConsole {
		if now := Snapshot(); now.OutputCP != 65001 {
			t.Fatalf("after EnableUTF8 the output code page is %d", now.OutputCP)
		}
		restore()
		if now := Snapshot(); now.OutputCP != c.OutputCP {
			t.Fatalf("restore left the output code page at %d, want %d", now.OutputCP, c.OutputCP)
		}
	}
}

// TestPreserve needs a console (run the test binary in one); without one
// Preserve has nothing to do.
func TestPreserve(t *testing.T) {
	c := Snapshot()
	if !c.HasConsole {
		t.Skip("no console")
	}
	restore := Preserve()
	other := uint32(850)
	if c.OutputCP == other {
		other = 437
	}
	if err := windows.SetConsoleOutputCP(other); err != nil {
		t.Fatal(err)
	}
	restore()
	if now := Snapshot(); now.OutputCP != c.OutputCP || now.InputCP != c.InputCP {
		t.Fatalf("after restore %+v; want %+v", now, c)
	}
}
