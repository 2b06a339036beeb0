package winconsole

import "testing"

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
