package docs

import (
	"encoding/json"
	"path"
	"regexp"
	"strings"
	"testing"
)

// A client is one of the MCP clients docs/mcp.md sets up, with what its
// snippet must give: an absolute path to chainrun and a --dir where the
// client does not start servers in the project with the user's PATH.
var clients = []struct {
	name     string
	lang     string // the snippet's fence
	absolute bool
}{
	{"Claude Code", "sh", false},
	{"Claude Desktop", "json", true},
	{"Cursor", "json", true},
	{"VS Code", "json", true},
	{"Codex", "toml", true},
}

// TestClientSnippets: every client section of docs/mcp.md's "Setting up
// a client" has a snippet that parses, starts chainrun mcp (or
// chainrun-mcp) with only flags the page's table lists, and, for the
// clients that need them, an absolute command and an absolute --dir.
func TestClientSnippets(t *testing.T) {
	page := readFile(t, "mcp.md")
	_, setup, ok := strings.Cut(page, "### Setting up a client\n")
	if !ok {
		t.Fatal("docs/mcp.md has no section \"Setting up a client\"")
	}
	setup, _, _ = strings.Cut(setup, "\n### ")
	flags := mcpFlags(page)
	for _, c := range clients {
		t.Run(c.name, func(t *testing.T) {
			_, rest, ok := strings.Cut(setup, "**"+c.name+"**")
			if !ok {
				t.Fatalf("no section for %s", c.name)
			}
			_, block, ok := strings.Cut(rest, "```"+c.lang+"\n")
			if !ok {
				t.Fatalf("no %s block for %s", c.lang, c.name)
			}
			block, _, _ = strings.Cut(block, "```")
			command, args, err := snippetCommand(c.lang, block)
			if err != nil {
				t.Fatalf("%s snippet: %v\n%s", c.lang, err, block)
			}
			checkInvocation(t, command, args, flags, c.absolute)
		})
	}
}

// checkInvocation checks one client's command line for chainrun mcp.
func checkInvocation(t *testing.T, command string, args []string, flags map[string]bool, absolute bool) {
	t.Helper()
	switch path.Base(command) {
	case "chainrun", "chainrun.exe":
		if len(args) == 0 || args[0] != "mcp" {
			t.Fatalf("%s %q: the first argument must be mcp", command, args)
		}
		args = args[1:]
	case "chainrun-mcp", "chainrun-mcp.exe":
	default:
		t.Fatalf("command %q is not chainrun", command)
	}
	if absolute && !isAbs(command) {
		t.Errorf("command %q: this client needs an absolute path", command)
	}
	dir := ""
	for i := 0; i < len(args); i++ {
		name, value, hasValue := strings.Cut(args[i], "=")
		takes, known := flags[name]
		if !known {
			t.Errorf("argument %q is no flag of chainrun mcp's table", args[i])
			continue
		}
		if takes && !hasValue {
			if i++; i == len(args) {
				t.Fatalf("%s takes a value", name)
			}
			value = args[i]
		}
		if name == "--dir" {
			dir = value
		}
	}
	if absolute && !isAbs(dir) && !strings.HasPrefix(dir, "${workspaceFolder}") {
		t.Errorf("--dir %q: this client starts servers outside the project; give the project's absolute path", dir)
	}
}

// isAbs reports a POSIX or Windows absolute path.
func isAbs(p string) bool {
	return strings.HasPrefix(p, "/") || regexp.MustCompile(`^[A-Za-z]:\\`).MatchString(p)
}

// mcpFlags reads the flags of docs/mcp.md's table, each with whether it
// takes a value ("| `--dir DIR` |": true; "| `--claude-settings[=DIR]` |":
// optional, false), and the audit log's rotation flags its row names.
func mcpFlags(page string) map[string]bool {
	flags := map[string]bool{}
	row := regexp.MustCompile("(?m)^\\| `(--[a-z-]+)(\\[=[A-Z]+\\]| [A-Za-z|]+)?`")
	for _, m := range row.FindAllStringSubmatch(page, -1) {
		flags[m[1]] = strings.HasPrefix(m[2], " ")
	}
	for _, f := range []string{"--audit-max-size", "--audit-max-backups", "--audit-max-age"} {
		if strings.Contains(page, "`"+f+"`") {
			flags[f] = true
		}
	}
	return flags
}

// snippetCommand reads the command and arguments a snippet starts the
// server with: a shell line after "--" (claude mcp add), a JSON
// configuration's chainrun server, or a TOML [mcp_servers.chainrun] table.
func snippetCommand(lang, block string) (string, []string, error) {
	switch lang {
	case "sh":
		_, after, ok := strings.Cut(strings.TrimSpace(block), " -- ")
		if !ok {
			return "", nil, errString("no \" -- \" before the server's command")
		}
		f := strings.Fields(after)
		return f[0], f[1:], nil
	case "json":
		var cfg struct {
			MCPServers map[string]server `json:"mcpServers"`
			Servers    map[string]server `json:"servers"`
		}
		if err := json.Unmarshal([]byte(block), &cfg); err != nil {
			return "", nil, err
		}
		s, ok := cfg.MCPServers["chainrun"]
		if !ok {
			s, ok = cfg.Servers["chainrun"]
		}
		if !ok {
			return "", nil, errString("no server named chainrun")
		}
		return s.Command, s.Args, nil
	}
	return tomlServer(block)
}

type server struct {
	Command string   `json:"command"`
	Args    []string `json:"args"`
}

type errString string

func (e errString) Error() string { return string(e) }

// tomlServer reads the [mcp_servers.chainrun] table of a snippet written
// in the part of TOML the page uses: tables, comments, and keys whose
// values are basic strings, arrays of them, or integers, which read as
// JSON does. Anything else in the snippet is an error.
func tomlServer(block string) (string, []string, error) {
	var table string
	var s server
	for _, line := range strings.Split(block, "\n") {
		line = strings.TrimSpace(line)
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
		case strings.HasPrefix(line, "[") && strings.HasSuffix(line, "]"):
			table = strings.Trim(line, "[]")
		default:
			key, value, ok := strings.Cut(line, " = ")
			var v any
			if !ok || json.Unmarshal([]byte(value), &v) != nil {
				return "", nil, errString("line " + line + ": not key = value in the TOML this page uses")
			}
			if table != "mcp_servers.chainrun" {
				continue
			}
			switch key {
			case "command":
				_ = json.Unmarshal([]byte(value), &s.Command)
			case "args":
				if err := json.Unmarshal([]byte(value), &s.Args); err != nil {
					return "", nil, err
				}
			}
		}
	}
	if s.Command == "" {
		return "", nil, errString("no [mcp_servers.chainrun] table with a command")
	}
	return s.Command, s.Args, nil
}
