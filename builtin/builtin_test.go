package builtin

import "testing"

func TestEchoUnicodeEscapesFollowTheLocale(t *testing.T) {
	for _, tt := range []struct {
		arg  string
		utf8 bool
		want string
	}{
		{`caf\u00e9`, true, "café\n"},
		{`caf\u00e9`, false, `caf\u00E9` + "\n"},
		{`\U000000e9`, false, `\u00E9` + "\n"},
		{`\U0001F600`, false, `\U0001F600` + "\n"},
		{`\u41\x42`, false, "AB\n"},
		{`\u263a`, true, "☺\n"},
	} {
		if got := string(echo([]string{"-e", tt.arg}, tt.utf8)); got != tt.want {
			t.Errorf("echo -e %q (utf8 %v) = %q, want %q", tt.arg, tt.utf8, got, tt.want)
		}
	}
	for env, want := range map[string]bool{
		"LANG=en_US.UTF-8": true, "LC_ALL=C": false, "LC_CTYPE=C.utf8": true, "": false, "LANG=de_DE": false,
	} {
		if got := localeIsUTF8([]string{env}); got != want {
			t.Errorf("localeIsUTF8(%q) = %v, want %v", env, got, want)
		}
	}
	if !localeIsUTF8([]string{"LANG=C", "LC_ALL=en_GB.UTF-8"}) {
		t.Error("LC_ALL must win over LANG")
	}
}
