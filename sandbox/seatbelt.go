package sandbox

import (
	"fmt"
	"strings"
)

// Seatbelt is the boundary as a macOS sandbox profile (SBPL) for
// sandbox-exec -p, with the paths passed as parameters (-D NAME=path,
// read by (param "NAME")) so no path is ever quoted into the profile.
// Seatbelt, unlike Landlock, carves: a deny after an allow takes the path
// back out, so every denied path is enforced there.
func (b *Boundary) Seatbelt() (profile string, params []string) {
	var sb strings.Builder
	sb.WriteString("(version 1)\n(allow default)\n")
	n := 0
	param := func(path string) string {
		name := fmt.Sprintf("P%d", n)
		n++
		params = append(params, name+"="+path)
		return `(subpath (param "` + name + `"))`
	}
	sb.WriteString("(deny file-write*)\n")
	for _, w := range b.Write {
		sb.WriteString("(allow file-write* " + param(w) + ")\n")
	}
	for _, d := range Devices {
		sb.WriteString("(allow file-write* " + param(d) + ")\n")
	}
	for _, d := range b.DenyWrite {
		sb.WriteString("(deny file-write* " + param(d) + ")\n")
	}
	for _, d := range b.DenyRead {
		sb.WriteString("(deny file-read* " + param(d) + ")\n")
	}
	for _, a := range b.AllowRead {
		sb.WriteString("(allow file-read* " + param(a) + ")\n")
	}
	switch {
	case b.Network:
	case b.LocalBind:
		sb.WriteString("(deny network-outbound (remote ip))\n")
	default:
		sb.WriteString("(deny network-outbound (remote ip))\n(deny network-bind (local ip))\n")
	}
	return sb.String(), params
}

// SeatbeltArgs is the command line that runs path with argv under the
// profile: sandbox-exec's options, then the program and its arguments
// after argv[0].
func (b *Boundary) SeatbeltArgs(path string, argv []string) []string {
	profile, params := b.Seatbelt()
	args := []string{"sandbox-exec", "-p", profile}
	for _, p := range params {
		args = append(args, "-D", p)
	}
	args = append(args, path)
	if len(argv) > 1 {
		args = append(args, argv[1:]...)
	}
	return args
}

// SandboxExec is where macOS keeps sandbox-exec.
const SandboxExec = "/usr/bin/sandbox-exec"
