package winproc

import "testing"

func TestBashStatus(t *testing.T) {
	for raw, want := range map[uint32]int{0: 0, 1: 1, 137: 137, 255: 255, 256: 255, 0xC000013A: 130, 0xC0000005: 255, 0xC0000100: 255} {
		if got := BashStatus(raw); got != want {
			t.Errorf("BashStatus(%#x) = %d, want %d", raw, got, want)
		}
	}
}
