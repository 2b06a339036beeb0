package policy

import "strings"

// Network clients: ssh, scp, sftp, rsync, curl and wget. Their guards
// refuse the options that run local programs, read options from files or
// write files; ssh runs whatever command it is given on the remote side.

func registerNet() {
	registerAll(
		&program{names: []string{"ssh"}, opts: *sshSpec("ssh"), guard: specGuard, runsCode: true},
		&program{names: []string{"scp"}, opts: *sshSpec("scp"), guard: specGuard, aliases: recursiveForce()},
		&program{names: []string{"sftp"}, opts: *sshSpec("sftp"), guard: specGuard},
		&program{names: []string{"rsync"}, guard: specGuard, aliases: recursiveForce(), opts: optSpec{
			shortVal: "efBMT",
			longVal: []string{"rsh", "rsync-path", "filter", "exclude", "include", "exclude-from", "include-from", "files-from", "temp-dir",
				"log-file", "password-file", "chmod", "backup-dir", "suffix"},
			longFlag: []string{"archive", "verbose", "recursive", "delete", "dry-run", "progress", "compress", "checksum", "stats"},
			abbrev:   true,
			danger: map[string]string{"-e": "rsync -e runs a remote shell program", "--rsh": "rsync --rsh runs a remote shell program",
				"--rsync-path": "rsync --rsync-path runs a program"},
			roles: map[string]fileRole{"--files-from": roleList, "--exclude-from": roleRead, "--include-from": roleRead},
		}},
		&program{names: []string{"curl"}, guard: specGuard, looseOpts: true, opts: optSpec{
			shortVal: "AbCcDdEFHKmoPQrTtUuwXxYyze",
			longVal: []string{"output", "config", "dump-header", "cookie-jar", "trace", "trace-ascii", "libcurl",
				"upload-file", "data", "data-binary", "data-raw", "header", "request", "user", "user-agent", "url", "form", "cookie", "referer",
				"proxy", "max-time", "connect-timeout", "retry"},
			longFlag: []string{"remote-name", "remote-name-all", "silent", "show-error", "fail", "location", "include", "head", "verbose",
				"insecure", "compressed"},
			danger: map[string]string{
				"-o": "curl -o writes a file", "--output": "curl --output writes a file",
				"-O": "curl -O writes a file", "--remote-name": "curl --remote-name writes a file", "--remote-name-all": "curl --remote-name-all writes files",
				"-K": "curl -K reads options from a file", "--config": "curl --config reads options from a file",
				"-D": "curl -D writes a file", "--dump-header": "curl --dump-header writes a file",
				"-c": "curl -c writes a cookie file", "--cookie-jar": "curl --cookie-jar writes a file",
				"--trace": "curl --trace writes a file", "--trace-ascii": "curl --trace-ascii writes a file",
				"--libcurl": "curl --libcurl writes a file",
				"-T":        "curl -T uploads a local file", "--upload-file": "curl --upload-file uploads a local file",
			},
			roles: map[string]fileRole{"-o": roleWrite, "--output": roleWrite, "-D": roleWrite, "--dump-header": roleWrite,
				"-c": roleWrite, "--cookie-jar": roleWrite, "--trace": roleWrite, "--trace-ascii": roleWrite, "--libcurl": roleWrite},
		}},
		&program{names: []string{"wget"}, guard: specGuard, looseOpts: true, opts: optSpec{
			shortVal: "OoPaeiDUTtwQ",
			longVal: []string{"output-document", "output-file", "directory-prefix", "append-output", "execute", "input-file", "user-agent",
				"tries", "timeout", "wait", "quota", "post-file", "body-file", "config"},
			abbrev: true,
			danger: map[string]string{
				"-O": "wget -O writes a file", "--output-document": "wget --output-document writes a file",
				"-o": "wget -o writes a file", "--output-file": "wget --output-file writes a file",
				"-e": "wget -e runs wgetrc commands", "--execute": "wget --execute runs wgetrc commands",
				"--post-file": "wget --post-file uploads a local file", "--body-file": "wget --body-file uploads a local file",
				"--config": "wget --config reads a wgetrc that can set any option",
			},
			roles: map[string]fileRole{"-O": roleWrite, "--output-document": roleWrite, "-o": roleWrite, "--output-file": roleWrite},
		}},
	)
}

// sshSpec describes ssh, scp and sftp: -F and -o options that run local
// programs, and scp/sftp -S.
func sshSpec(prog string) *optSpec {
	s := &optSpec{shortVal: "BbcDEeFIiJLlmOoPpQRSWw",
		danger: map[string]string{"-F": prog + " -F reads a config file that can run commands"},
		check: func(flag string, w word) string {
			val, ok := w.known()
			if flag != "-o" || !ok {
				return "" // runtimeArgGuard stops a value known only at run time
			}
			key := strings.ToLower(strings.TrimSpace(val))
			if i := strings.IndexAny(key, "= \t"); i >= 0 {
				key = key[:i]
			}
			switch key {
			case "proxycommand", "localcommand", "permitlocalcommand", "knownhostscommand", "remotecommand", "include", "proxyusefdpass", "securitykeyprovider", "pkcs11provider":
				return prog + " -o " + key + " runs a local program"
			}
			return ""
		}}
	if prog == "scp" || prog == "sftp" {
		s.shortVal = "BcDFiJlloPSsXP"
		s.danger["-S"] = prog + " -S runs a program as ssh"
	}
	return s
}
