// mcp-bench.mjs: latency of one command from a TypeScript agent, three
// ways, measured side by side in one run: a `run` call to a long-lived
// `chainrun mcp` through the official MCP client, spawning `bash -c` per
// command, and spawning `chainrun --json` per command. Every round does
// each once, the order rotated between rounds; the medians and their
// ratios are printed, with the middle half of the per-round ratios.
//
//   node bench/mcp-bench.mjs SDK_DIR CHAINRUN ROUNDS COMMAND
//
// SDK_DIR is @modelcontextprotocol/sdk's dist/esm directory (bench/mcp.sh
// installs it with npm ci in mcpserver/testdata/e2e).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';

const [sdk, chainrun, roundsArg, command] = process.argv.slice(2);
const rounds = Number(roundsArg);
const { Client } = await import(pathToFileURL(path.join(sdk, 'client/index.js')).href);
const { StdioClientTransport } = await import(pathToFileURL(path.join(sdk, 'client/stdio.js')).href);

// exec spawns a program as an agent would and waits for its exit.
function exec(file, args) {
  return new Promise((resolve, reject) => {
    const p = spawn(file, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    p.stdout.resume();
    p.stderr.resume();
    p.on('error', reject);
    p.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`${file} exited ${code}`))));
  });
}

const client = new Client({ name: 'mcp-bench', version: '1.0.0' });
await client.connect(new StdioClientTransport({ command: chainrun, args: ['mcp', '--dialect', 'posix'], env: { ...process.env } }));

const ways = {
  'MCP run call': async () => {
    const res = await client.callTool({ name: 'run', arguments: { command } });
    if (res.isError || res.structuredContent.exit_code !== 0) throw new Error(JSON.stringify(res));
  },
  'spawn bash -c': () => exec('bash', ['-c', command]),
  'spawn chainrun --json': () => exec(chainrun, ['--json', command]),
};
const names = Object.keys(ways);

for (let i = 0; i < 5; i++) for (const n of names) await ways[n](); // warm-up

const times = Object.fromEntries(names.map((n) => [n, []]));
for (let r = 0; r < rounds; r++) {
  for (let k = 0; k < names.length; k++) {
    const n = names[(r + k) % names.length];
    const t0 = performance.now();
    await ways[n]();
    times[n].push(performance.now() - t0);
  }
}
await client.close();

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const quartiles = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return [s[Math.floor(s.length / 4)], s[Math.floor((3 * s.length) / 4)]];
};
const ms = (x) => `${x.toFixed(2)} ms`;

console.log(`command: ${command}; ${rounds} rounds, each way once per round, order rotated`);
console.log('| way | median latency |');
console.log('|---|---|');
for (const n of names) console.log(`| ${n} | ${ms(median(times[n]))} |`);
console.log('');
console.log('| ratio | of the medians | middle half of the per-round ratios |');
console.log('|---|---|---|');
for (const [a, b] of [['MCP run call', 'spawn bash -c'], ['MCP run call', 'spawn chainrun --json'], ['spawn chainrun --json', 'spawn bash -c']]) {
  const per = times[a].map((x, i) => x / times[b][i]);
  const [lo, hi] = quartiles(per);
  console.log(`| ${a} / ${b} | ${(median(times[a]) / median(times[b])).toFixed(2)} | ${lo.toFixed(2)}-${hi.toFixed(2)} |`);
}
