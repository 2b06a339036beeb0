// End-to-end test of `chainrun mcp` with the official TypeScript MCP client,
// over real stdio pipes, as an agent written in TypeScript would use it.
//
// Run by mcpserver's TestNodeE2E, which builds chainrun and passes:
//   CHAINRUN_BIN   the chainrun binary
//   CHAINRUN_WORK  an empty directory for the sessions and the policy
//   CHAINRUN_CLAUDE_MCP_JSON, CHAINRUN_CLAUDE_SETTINGS
//                  the Claude Code setup docs/mcp.md gives (.mcp.json and
//                  .claude/settings.json)
//   PATH           with the test programs (lines, hang, spawn, …) first and
//                  chainrun's directory last
//
//   node --test e2e.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema, CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';

const bin = process.env.CHAINRUN_BIN;
const work = process.env.CHAINRUN_WORK;
const grace = 500; // ms, the servers' --grace
if (!bin || !work) {
  throw new Error('CHAINRUN_BIN and CHAINRUN_WORK must be set (TestNodeE2E sets them)');
}

// The policy of the servers that judge: the test programs are allowed,
// print-env is denied, anything else (make-file) is asked about.
const policyFile = path.join(work, 'policy.json');
fs.writeFileSync(policyFile, JSON.stringify({
  permissions: {
    allow: ['Bash(lines:*)', 'Bash(first-line:*)', 'Bash(cat-stdin:*)', 'Bash(show-dir:*)', 'Bash(hang:*)',
      'Bash(spawn:*)', 'Bash(echo:*)', 'Bash(cd:*)', 'Bash(true)', 'Bash(exit-with:*)'],
    deny: ['Bash(print-env:*)'],
  },
}));

// connect starts a server process and connects a client to it; answer,
// when given, makes the client declare elicitation and answer with it.
async function connect(name, args, answer) {
  const dir = path.join(work, name);
  fs.mkdirSync(path.join(dir, 'sub'), { recursive: true });
  const transport = new StdioClientTransport({
    command: bin,
    args: ['mcp', '--dir', dir, '--dialect', 'posix', '--grace', `${grace}ms`, ...args],
    env: { ...process.env },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (d) => { stderr += d; });
  const capabilities = answer ? { elicitation: {} } : {};
  const client = new Client({ name: `e2e-${name}`, version: '1.0.0' }, { capabilities });
  const asked = [];
  if (answer) {
    client.setRequestHandler(ElicitRequestSchema, async (req) => {
      asked.push(req.params.message);
      return answer.current;
    });
  }
  await client.connect(transport);
  return { client, dir, asked, stderr: () => stderr };
}

function textOf(res) {
  return res.content.filter((c) => c.type === 'text').map((c) => c.text).join('');
}

async function run(s, args, options) {
  return s.client.callTool({ name: 'run', arguments: args }, CallToolResultSchema, options);
}

// pids reads the pids a file holds, waiting for at least n.
async function pids(file, n) {
  for (let i = 0; i < 500; i++) {
    const got = fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split(/\s+/).filter(Boolean).map(Number) : [];
    if (got.length >= n) return got;
    await sleep(20);
  }
  throw new Error(`${file}: fewer than ${n} pids`);
}

// alive: the process exists and is no zombie.
function alive(pid) {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return true;
  }
}

// assertGone checks that every pid ended within ms.
async function assertGone(list, ms) {
  const deadline = Date.now() + ms;
  for (const pid of list) {
    while (alive(pid)) {
      assert.ok(Date.now() < deadline, `process ${pid} still runs ${ms}ms later`);
      await sleep(10);
    }
  }
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

let plain; // no policy
let judged; // with the policy, an elicitation-capable client
let noAsk; // with the policy, a client without elicitation
const answer = { current: { action: 'accept', content: { approve: true } } };

before(async () => {
  plain = await connect('plain', [], null);
  judged = await connect('judged', ['--policy', policyFile], answer);
  noAsk = await connect('noask', ['--policy', policyFile], null);
});

after(async () => {
  for (const s of [plain, judged, noAsk]) await s?.client.close();
});

test('tools/list names the five tools with their annotations and output schemas', async () => {
  const { tools } = await plain.client.listTools();
  const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
  assert.deepEqual(Object.keys(byName).sort(), ['explain', 'job_kill', 'job_list', 'job_output', 'run']);
  assert.equal(byName.run.annotations.destructiveHint, true);
  assert.equal(byName.explain.annotations.readOnlyHint, true);
  assert.ok(byName.run.outputSchema.properties.cwd);
  assert.ok(byName.run.outputSchema.properties.exit_code);
});

test('a pipeline runs, with the --json object as structured content', async () => {
  const res = await run(plain, { command: 'lines 3 | first-line && echo done' });
  assert.equal(res.isError, undefined);
  assert.equal(res.structuredContent.stdout, '1\ndone\n');
  assert.equal(res.structuredContent.exit_code, 0);
  assert.equal(res.structuredContent.segments.length, 3);
  assert.match(textOf(res), /^exit 0 in /);
});

test('a refusal is an error with the caret and the fix', async () => {
  const res = await run(plain, { command: 'echo a; eval date' });
  assert.equal(res.isError, true);
  assert.equal(res.structuredContent.error.kind, 'unsupported');
  assert.equal(res.structuredContent.exit_code, 2);
  assert.match(textOf(res), /run the program directly instead/);
  assert.match(textOf(res), /\n\s+\^/);
});

test('cd carries over to the next call', async () => {
  const first = await run(plain, { command: 'cd sub' });
  assert.equal(first.structuredContent.cwd, path.join(plain.dir, 'sub'));
  const next = await run(plain, { command: 'show-dir' });
  assert.equal(next.structuredContent.stdout, 'sub\n');
  await run(plain, { command: 'cd ..' });
});

test('exported and shell variables carry over to the next call', async () => {
  await run(plain, { command: 'export E2E_MODE=test && E2E_SHELL=1' });
  const next = await run(plain, { command: 'echo "$E2E_MODE $E2E_SHELL" ~ *.nomatch' });
  assert.match(next.structuredContent.stdout, /^test 1 \S+ \*\.nomatch\n$/);
  await run(plain, { command: 'unset E2E_MODE E2E_SHELL' });
  const gone = await run(plain, { command: 'echo "[$E2E_MODE$E2E_SHELL]"' });
  assert.equal(gone.structuredContent.stdout, '[]\n');
});

test('stdin is the argument, or empty: never the server\'s', async () => {
  const given = await run(plain, { command: 'cat-stdin | first-line', stdin: 'a\nb\n' });
  assert.equal(given.structuredContent.stdout, 'a\n');
  const none = await run(plain, { command: 'cat-stdin && echo after' });
  assert.equal(none.structuredContent.stdout, 'after\n');
});

test('the output cap keeps head and tail with a marker', async () => {
  const res = await run(plain, { command: 'lines 100', max_output: 64 });
  assert.equal(res.structuredContent.stdout_omitted, 228);
  assert.match(textOf(res), /… 228 bytes omitted …/);
  assert.match(textOf(res), /99\n100\n/);
});

test('progress notifications carry the last output line', async () => {
  const flag = path.join(plain.dir, 'progress-flag');
  const seen = [];
  const res = await run(plain, { command: `lines 2 && wait-for '${flag}'` }, {
    onprogress: (p) => {
      seen.push(p);
      if (seen.length === 2) fs.writeFileSync(flag, '');
    },
    resetTimeoutOnProgress: true,
  });
  assert.equal(res.structuredContent.exit_code, 0);
  assert.ok(seen.length >= 2, `${seen.length} notifications`);
  assert.equal(seen.at(-1).message, '2');
  assert.ok(seen[1].progress > seen[0].progress);
});

test('cancellation stops the whole tree and leaves no process', async () => {
  const pidFile = path.join(plain.dir, 'cancel-pids');
  const spawned = path.join(plain.dir, 'cancel-spawned');
  const ac = new AbortController();
  const call = run(plain, { command: `hang '${pidFile}' | spawn > '${spawned}'` }, { signal: ac.signal });
  const list = [...await pids(pidFile, 1), ...await pids(spawned, 2)];
  ac.abort();
  await assert.rejects(call);
  await assertGone(list, grace + 1000);
  // The session goes on.
  const res = await run(plain, { command: 'true' });
  assert.equal(res.structuredContent.exit_code, 0);
});

test('a background job is read to its end', async () => {
  const flag = path.join(plain.dir, 'job-flag');
  const started = await run(plain, { command: `lines 2 && wait-for '${flag}' && lines 3`, background: true });
  const job = started.structuredContent.job;
  assert.match(job, /^job-/);
  assert.equal(started.isError, undefined);
  assert.equal(started.structuredContent.exit_code, 0);
  assert.equal(started.structuredContent.running, true);
  assert.equal(started.structuredContent.error, null);
  let out = '';
  let offset = 0;
  let last;
  for (let i = 0; i < 1000; i++) {
    const res = await plain.client.callTool({ name: 'job_output', arguments: { job, offset } });
    last = res.structuredContent;
    out += last.output;
    offset = last.next_offset;
    if (out === '1\n2\n') fs.writeFileSync(flag, '');
    if (!last.running) break;
    await sleep(10);
  }
  assert.equal(out, '1\n2\n1\n2\n3\n');
  assert.equal(last.running, false);
  assert.equal(last.exit_code, 0);
  const list = await plain.client.callTool({ name: 'job_list', arguments: {} });
  assert.ok(list.structuredContent.jobs.some((j) => j.job === job && !j.running));
});

test('job_kill stops the job\'s whole tree', async () => {
  const pidFile = path.join(plain.dir, 'kill-pids');
  const spawned = path.join(plain.dir, 'kill-spawned');
  const started = await run(plain, { command: `hang '${pidFile}' | spawn > '${spawned}'`, background: true });
  const job = started.structuredContent.job;
  const list = [...await pids(pidFile, 1), ...await pids(spawned, 2)];
  const res = await plain.client.callTool({ name: 'job_kill', arguments: { job } });
  assert.equal(res.structuredContent.job, job);
  assert.equal(res.structuredContent.canceled, true);
  await assertGone(list, 1000);
});

test('deny: an error, and nothing ran', async () => {
  const res = await run(judged, { command: 'print-env HOME > denied.txt' });
  assert.equal(res.isError, true);
  assert.equal(res.structuredContent.decision, 'deny');
  assert.equal(res.structuredContent.exit_code, 3);
  assert.equal(fs.existsSync(path.join(judged.dir, 'denied.txt')), false);
  assert.equal(judged.asked.length, 0);
});

test('ask, accepted through elicitation: runs', async () => {
  answer.current = { action: 'accept', content: { approve: true } };
  const before = judged.asked.length;
  const res = await run(judged, { command: "make-file 'accepted.txt'" });
  assert.equal(res.isError, undefined, textOf(res));
  assert.equal(judged.asked.length, before + 1);
  assert.match(judged.asked.at(-1), /make-file 'accepted.txt'/);
  assert.ok(fs.existsSync(path.join(judged.dir, 'accepted.txt')));
});

test('ask, declined: an error, and nothing ran', async () => {
  answer.current = { action: 'decline' };
  const res = await run(judged, { command: "make-file 'declined.txt'" });
  assert.equal(res.isError, true);
  assert.equal(res.structuredContent.exit_code, 3);
  assert.match(textOf(res), /declined/);
  assert.equal(fs.existsSync(path.join(judged.dir, 'declined.txt')), false);
});

test('ask, client without elicitation: an error at once with the suggestion', async () => {
  const res = await run(noAsk, { command: "make-file 'unasked.txt'" });
  assert.equal(res.isError, true);
  assert.equal(res.structuredContent.decision, 'ask');
  assert.ok(res.structuredContent.suggestions.length > 0);
  assert.match(textOf(res), /cannot ask/);
  assert.equal(fs.existsSync(path.join(noAsk.dir, 'unasked.txt')), false);
});

// The Claude Code configuration docs/mcp.md and the README give
// (CHAINRUN_CLAUDE_MCP_JSON, CHAINRUN_CLAUDE_SETTINGS), started as Claude
// Code starts a project's server: the command as written, found on PATH,
// in the project's directory, with a home of its own. The tools answer,
// the user's allow rule and the read-only default allow, and the session
// starts in the project.
test('the Claude Code setup of docs/mcp.md, started as Claude Code starts it', async () => {
  const server = JSON.parse(process.env.CHAINRUN_CLAUDE_MCP_JSON).mcpServers.chainrun;
  const proj = fs.realpathSync(fs.mkdtempSync(path.join(work, 'claude-project-')));
  const home = path.join(work, 'claude-home');
  fs.mkdirSync(path.join(proj, '.claude'), { recursive: true });
  fs.mkdirSync(home, { recursive: true });
  fs.writeFileSync(path.join(proj, '.claude', 'settings.json'), process.env.CHAINRUN_CLAUDE_SETTINGS);
  const transport = new StdioClientTransport({
    command: server.command,
    args: server.args,
    cwd: proj,
    env: { ...process.env, HOME: home, USERPROFILE: home, CLAUDE_CONFIG_DIR: '' },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'e2e-claude-setup', version: '1.0.0' }, { capabilities: {} });
  await client.connect(transport);
  try {
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), ['explain', 'job_kill', 'job_list', 'job_output', 'run']);
    const plan = await client.callTool({ name: 'explain', arguments: { command: 'go test ./...' } });
    assert.equal(plan.structuredContent.decision, 'allow');
    const res = await client.callTool({ name: 'run', arguments: { command: 'pwd' } });
    assert.notEqual(res.isError, true, textOf(res));
    assert.equal(res.structuredContent.stdout.trim(), proj);
  } finally {
    await client.close();
  }
});
