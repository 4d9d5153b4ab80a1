import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupAddress } from 'node:dns';
import { performance } from 'node:perf_hooks';
import { classifyAddress } from '../../lib/addresses.js';
import { addressAllowed, refusalOf } from './rules.js';

/** Answers a host name's addresses: the system's resolver, or a test's (to play DNS rebinding). */
export type Resolver = (hostname: string) => Promise<LookupAddress[]>;

export const systemResolver: Resolver = (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });

/** How much of an answer is read before the connection is closed. */
export const ANSWER_LIMIT_BYTES = 64 * 1024;

export interface Attempt {
  statusCode: number | null;
  durationMs: number;
  /** null when the receiver answered 2xx. */
  error: string | null;
}

export interface SendOptions {
  url: string;
  body: string;
  headers: Record<string, string>;
  timeoutMs: number;
  allowPrivate: boolean;
  resolver: Resolver;
  /** The run's connection (runConnection); without it, a connection of the attempt's own. */
  agent?: http.Agent;
}

/**
 * One connection for a run of deliveries to one webhook, sent one after another: its address is
 * checked once, at its connect, like any connection of sendOnce, and the connection ends with the
 * run (destroy it), so no later run reuses an address checked before. A connection the receiver
 * closes, or an attempt that fails, is replaced by a fresh one, checked again.
 */
export function runConnection(url: string): http.Agent {
  const options = { keepAlive: true, maxSockets: 1 };
  return url.startsWith('https:') ? new https.Agent(options) : new http.Agent(options);
}

class Refused extends Error {}

/**
 * One POST of a delivery. The host is resolved by our own lookup, which refuses any non-public
 * address (docs/webhooks.md "Where deliveries may go"), so the address checked is the address
 * connected to; a fresh connection each time, or the run's (runConnection), never a socket of a
 * shared pool; no redirect is followed; at most ANSWER_LIMIT_BYTES of the answer are read; the whole
 * attempt within timeoutMs.
 */
export function sendOnce(options: SendOptions): Promise<Attempt> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const url = new URL(options.url);
  const hostname = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  const check = (address: string): void => {
    const kind = classifyAddress(address) ?? 'reserved';
    if (!addressAllowed(kind, url.protocol, options.allowPrivate)) throw new Refused(`${address}: ${refusalOf(kind, options.allowPrivate)}`);
  };
  return new Promise<Attempt>((resolve) => {
    let settled = false;
    const finish = (statusCode: number | null, error: string | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ statusCode, durationMs: elapsed(), error: error === null ? null : error.slice(0, 500) });
    };
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return finish(null, `unsupported protocol ${url.protocol}`);
    // Node connects to an address literal without calling lookup: it is checked here instead.
    if (classifyAddress(hostname) !== null) {
      try {
        check(hostname);
      } catch (error) {
        return finish(null, (error as Error).message);
      }
    }
    const lookup = (host: string, lookupOptions: { all?: boolean }, callback: (...args: unknown[]) => void) => {
      options.resolver(host).then(
        (addresses) => {
          try {
            if (addresses.length === 0) throw new Error(`${host} has no address`);
            for (const { address } of addresses) check(address);
          } catch (error) {
            return callback(error);
          }
          if (lookupOptions.all) callback(null, addresses);
          else callback(null, addresses[0].address, addresses[0].family);
        },
        (error: unknown) => callback(error),
      );
    };
    let request: http.ClientRequest;
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      request.destroy(new Error(`no answer within ${options.timeoutMs} ms`));
    }, options.timeoutMs);
    const post = (retrying: boolean) => {
      request = (url.protocol === 'https:' ? https : http).request(url, {
        method: 'POST',
        agent: options.agent ?? false,
        lookup: lookup as never,
        headers: { ...options.headers, 'content-length': String(Buffer.byteLength(options.body)) },
      });
      let answered = false;
      request.on('error', (error) => {
        // The receiver closed the run's open connection as this delivery went out on it: once more on
        // a new connection (checked at its connect like any other), as an HTTP client does.
        if (request.reusedSocket && !answered && !retrying && !timedOut && !settled) return post(true);
        finish(null, error.message);
      });
      request.on('response', (response) => {
        answered = true;
        const status = response.statusCode ?? 0;
        let read = 0;
        const done = () => {
          // An answer cut short closes its connection; a whole one leaves it to the run (which ends at a failure).
          if (!response.complete) response.destroy();
          if (status >= 200 && status < 300) finish(status, null);
          else if (status >= 300 && status < 400) finish(status, `answered ${status}: redirects are not followed`);
          else finish(status, `answered ${status}`);
        };
        response.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read >= ANSWER_LIMIT_BYTES) done();
        });
        response.on('end', done);
        response.on('error', (error) => finish(status, error.message));
      });
      request.end(options.body);
    };
    post(false);
  });
}
