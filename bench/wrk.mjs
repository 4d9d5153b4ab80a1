// The load generator: wrk, a native one, so that the generator is not what limits a slice (autocannon,
// JavaScript on one core, topped out below what the bare node:http server answers on the other).
// Every request of a slice is formatted once, before the slice starts (`init`), and `request` hands
// them out in turn: nothing is built per request. One wrk thread, on the core the caller pins it to.
import { execFileSync, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Buffer } from 'node:buffer';

const scripts = fs.mkdtempSync(path.join(os.tmpdir(), 'timetrack-wrk-'));
process.on('exit', () => fs.rmSync(scripts, { recursive: true, force: true }));

/** wrk on PATH, installed from the OS's packages when it is missing and this process may (root, apt-get). */
export function ensureWrk(log) {
  if (has('wrk')) return;
  if (process.getuid?.() === 0 && has('apt-get')) {
    log('wrk is missing: installing it with apt-get (the bench\'s load generator)...');
    execFileSync('apt-get', ['install', '-y', '-q', 'wrk'], { stdio: 'ignore', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    if (has('wrk')) return;
  }
  throw new Error('the bench needs wrk (Debian and Ubuntu: apt-get install wrk)');
}

function has(command) {
  try {
    execFileSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** A Lua string literal of the text's UTF-8 bytes, byte for byte: every byte outside printable ASCII, `"` and `\` as `\ddd`. */
const literal = (text) => {
  let out = '"';
  for (const byte of Buffer.from(text, 'utf8')) {
    out += byte >= 0x20 && byte < 0x7f && byte !== 0x22 && byte !== 0x5c ? String.fromCharCode(byte) : `\\${String(byte).padStart(3, '0')}`;
  }
  return `${out}"`;
};

/** The Lua script of one request spec, written once per spec. */
function scriptOf({ method, headers = {}, paths, bodies }) {
  // wrk.format adds Host (unless given as `Host`) and Content-Length itself: a spec's own would go twice.
  const headerLines = Object.entries(headers)
    .filter(([name]) => name.toLowerCase() !== 'content-length')
    .map(([name, value]) => `[${literal(name.toLowerCase() === 'host' ? 'Host' : name)}] = ${literal(String(value))}`);
  const text = [
    'local requests = {}',
    'local next = 0',
    'init = function(args)',
    `  local headers = { ${headerLines.join(', ')} }`,
    `  local paths = { ${paths.map(literal).join(', ')} }`,
    `  local bodies = { ${(bodies ?? []).map(literal).join(', ')} }`,
    '  local n = math.max(#paths, #bodies)',
    '  for k = 1, n do',
    `    requests[k] = wrk.format(${literal(method)}, paths[(k - 1) % #paths + 1], headers, #bodies > 0 and bodies[(k - 1) % #bodies + 1] or nil)`,
    '  end',
    'end',
    'request = function()',
    '  next = next % #requests + 1',
    '  return requests[next]',
    'end',
    'done = function(summary, latency, requests)',
    '  local e = summary.errors',
    '  io.write(string.format(\'{"requests":%d,"us":%d,"bytes":%d,"p50":%.1f,"p99":%.1f,"non2xx":%d,"errors":%d}\\n\',',
    '    summary.requests, summary.duration, summary.bytes, latency:percentile(50), latency:percentile(99),',
    '    e.status, e.connect + e.read + e.write + e.timeout))',
    'end',
  ].join('\n');
  const file = path.join(scripts, `${crypto.createHash('sha256').update(text).digest('hex').slice(0, 16)}.lua`);
  if (!fs.existsSync(file)) fs.writeFileSync(file, text);
  return file;
}

/**
 * One slice: `connections` connections for `seconds` (whole seconds: wrk's unit) against the port.
 * `pin` turns the command into a pinned one. Resolves to {requests, rps, p50, p99 (ms), non2xx, errors, bytes}.
 */
export function wrkSlice(pin, port, { connections, seconds, ...request }) {
  const [file, argv] = pin(['wrk', '-t1', `-c${connections}`, `-d${Math.max(1, Math.round(seconds))}s`, '--timeout', '30s', '-s', scriptOf(request), `http://127.0.0.1:${port}`]);
  return new Promise((resolve, reject) => {
    const child = spawn(file, argv, { stdio: ['ignore', 'pipe', 'inherit'] });
    let text = '';
    child.stdout.on('data', (chunk) => (text += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      const line = text.split('\n').find((l) => l.startsWith('{'));
      if (code !== 0 || !line) return reject(new Error(`wrk exited with ${code}: ${text.slice(-500)}`));
      const out = JSON.parse(line);
      const secondsTaken = out.us / 1e6;
      resolve({
        requests: out.requests,
        rps: out.requests / secondsTaken,
        p50: out.p50 / 1000,
        p99: out.p99 / 1000,
        non2xx: out.non2xx,
        errors: out.errors,
        bytes: out.bytes,
      });
    });
  });
}
