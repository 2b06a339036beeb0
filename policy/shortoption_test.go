package policy

import "testing"

// TestShortOption: every byte's short option is "-" and the byte (its rune
// past ASCII), as the table it replaces spelled it.
func TestShortOption(t *testing.T) {
	for i := 0; i < 256; i++ {
		if got, want := shortOption(byte(i)), "-"+string(rune(i)); got != want {
			t.Errorf("shortOption(%d) = %q, want %q", i, got, want)
		}
	}
}
