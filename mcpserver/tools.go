package mcpserver

import (
	"reflect"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/chainrun/chainrun/report"
)

// The tools' names, arguments and results are the server's contract with
// clients (docs/mcp.md). Arguments and results are added to, never renamed
// or retyped, as the report's fields are.

// RunArgs are the arguments of the run tool.
type RunArgs struct {
	Command    string            `json:"command" jsonschema:"the command line, in bash syntax: pipes, &&, ||, ;, redirects, quotes; e.g. go test ./... 2>&1 | tail -n 30"`
	Dir        string            `json:"dir,omitempty" jsonschema:"directory for this call only (relative to the session's directory); the session's directory is unchanged afterwards"`
	Env        map[string]string `json:"env,omitempty" jsonschema:"variables to set for this call, replacing inherited ones"`
	Timeout    string            `json:"timeout,omitempty" jsonschema:"stop the whole chain after this long (30s, 5m); default: the server's --timeout"`
	Stdin      string            `json:"stdin,omitempty" jsonschema:"text for the first stage's stdin; without it stdin is empty, so prompts end at EOF"`
	MaxOutput  int               `json:"max_output,omitempty" jsonschema:"bytes kept of each of stdout and stderr, head and tail; default: the server's --max-output"`
	Pipefail   bool              `json:"pipefail,omitempty" jsonschema:"a pipeline's status is its rightmost non-zero stage's"`
	Dialect    string            `json:"dialect,omitempty" jsonschema:"how backslashes read: posix or windows; default: the server's"`
	Background bool              `json:"background,omitempty" jsonschema:"start the chain and return at once with a job id (dev servers, watchers); read it with job_output, stop it with job_kill"`
}

// RunResult is the run tool's structured result: the object chainrun
// --json prints, plus the session's directory and, for a background run
// or a job's final result, the job.
type RunResult struct {
	report.Run
	// Cwd is the session's directory after the chain.
	Cwd string `json:"cwd"`
	// Job is the background job's id.
	Job string `json:"job,omitempty"`
	// Running is set on the answer that started a background job: the
	// chain runs on, and ExitCode is 0 until job_output reports its own.
	Running bool `json:"running,omitempty"`
}

// ExplainArgs are the arguments of the explain tool.
type ExplainArgs struct {
	Command string `json:"command" jsonschema:"the command line to explain"`
	Dialect string `json:"dialect,omitempty" jsonschema:"posix or windows; default: the server's"`
}

// JobArgs name a job.
type JobArgs struct {
	Job string `json:"job" jsonschema:"the job id that run with background=true returned"`
}

// JobOutputArgs are the arguments of job_output.
type JobOutputArgs struct {
	Job    string `json:"job" jsonschema:"the job id that run with background=true returned"`
	Offset int64  `json:"offset,omitempty" jsonschema:"bytes of output already read: the next_offset of the previous call; 0 for everything kept"`
}

// JobOutput is what job_output returns.
type JobOutput struct {
	Job string `json:"job"`
	// Output is the job's stdout and stderr, in arrival order, from Offset
	// on; where the kept head and tail leave a gap, the gap is Omitted.
	Output string `json:"output"`
	// Offset echoes the argument; NextOffset is the offset to pass next.
	Offset     int64 `json:"offset"`
	NextOffset int64 `json:"next_offset"`
	// Omitted counts the bytes after Offset that were no longer kept.
	Omitted int64 `json:"omitted"`
	Running bool  `json:"running"`
	// ExitCode is null while the job runs.
	ExitCode *int `json:"exit_code"`
	// Error is why the job ended early (timeout, killed), null otherwise.
	Error *report.Error `json:"error"`
}

// JobInfo describes one job in job_list.
type JobInfo struct {
	Job        string  `json:"job"`
	Command    string  `json:"command"`
	Dir        string  `json:"dir"`
	Running    bool    `json:"running"`
	ExitCode   *int    `json:"exit_code"`
	DurationMS float64 `json:"duration_ms"`
	// OutputBytes is how much the job has printed, the next_offset a
	// reader of everything would reach.
	OutputBytes int64 `json:"output_bytes"`
}

// JobList is what job_list returns.
type JobList struct {
	Jobs []JobInfo `json:"jobs"`
}

func ptr[T any](v T) *T { return &v }

var runTool = &mcp.Tool{
	Name:  "run",
	Title: "Run a command line",
	Description: "Run a command line (bash syntax: |, &&, ||, ;, redirects, quotes) without a shell, after the user's " +
		"permission policy has judged exactly what will run. Returns the exit status, duration and output (head and tail " +
		"when long); a non-zero status is a result, not an error. Refused syntax, denials, timeouts and unapproved " +
		"chains are errors that say why and how to fix it. A top-level cd carries over to later calls in this session. " +
		"Jobs: " + backgroundFix + "; they end with job_kill, their timeout, or the session. " +
		"Refused before anything runs, each with its fix:" + refusedFixes(),
	Annotations: &mcp.ToolAnnotations{
		Title:           "Run a command line",
		ReadOnlyHint:    false,
		DestructiveHint: ptr(true),
		IdempotentHint:  false,
		OpenWorldHint:   ptr(true),
	},
}

var explainTool = &mcp.Tool{
	OutputSchema: planSchema(),
	Name:         "explain",
	Title:        "Explain a command line",
	Description: "Parse a command line and, under the server's policy, judge it in the session's directory; runs " +
		"nothing. Returns the segments (argv, env, redirects), the operators, dialect warnings, a refusal with its " +
		"offset, and the policy's decision with reasons and suggested rules.",
	Annotations: &mcp.ToolAnnotations{
		Title:          "Explain a command line",
		ReadOnlyHint:   true,
		IdempotentHint: true,
		OpenWorldHint:  ptr(false),
	},
}

var jobOutputTool = &mcp.Tool{
	Name:  "job_output",
	Title: "Read a background job's output",
	Description: "Output of a background job since offset (pass the previous next_offset), whether it still runs, and " +
		"its exit code once it ended. The first and last " + sizeText(JobLogSize/2) + " of a job's output are kept; " +
		"omitted counts what was dropped in between.",
	Annotations: &mcp.ToolAnnotations{Title: "Read a job's output", ReadOnlyHint: true, OpenWorldHint: ptr(false)},
}

var jobKillTool = &mcp.Tool{
	Name:  "job_kill",
	Title: "Stop a background job",
	Description: "Stop a background job's whole process tree (a polite stop, then a kill after the grace period) and " +
		"return its final result, as run would have.",
	Annotations: &mcp.ToolAnnotations{
		Title:           "Stop a job",
		DestructiveHint: ptr(true),
		IdempotentHint:  true,
		OpenWorldHint:   ptr(false),
	},
}

var jobListTool = &mcp.Tool{
	Name:        "job_list",
	Title:       "List background jobs",
	Description: "The session's background jobs, running and finished, with their commands and statuses.",
	Annotations: &mcp.ToolAnnotations{Title: "List jobs", ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: ptr(false)},
}

// planSchema is the explain tool's output schema: report.Plan's as the
// SDK would infer it, but for a compound command (report.Compound),
// whose parts hold segments again, a cycle inference cannot follow: it is
// an object there, described in docs/json.md.
func planSchema() *jsonschema.Schema {
	compound := &jsonschema.Schema{Type: "object",
		Description: "a compound command (if, a loop, case, a group, a subshell): kind, var, items, and parts, each with role and segments as the plan's"}
	s, err := jsonschema.For[report.Plan](&jsonschema.ForOptions{TypeSchemas: map[reflect.Type]*jsonschema.Schema{
		reflect.TypeFor[report.Compound](): compound,
	}})
	if err != nil {
		panic("mcpserver: the plan's schema: " + err.Error())
	}
	return s
}
