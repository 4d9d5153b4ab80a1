import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import pino from 'pino';
import type { Workspace } from '../domain/actor.js';

const { chindingsSym, streamSym } = pino.symbols;

/** What the access line needs of pino's child logger: its bound fields (pid, hostname, reqId) and its destination. */
const boundFieldsOf = (log: object): string => (log as Record<symbol, string>)[chindingsSym];
const destinationOf = (log: object): { write(line: string): unknown } => (log as Record<symbol, { write(line: string): unknown }>)[streamSym];

/**
 * One access line per answered request, at `info` (docs/operations.md, "Logs"): method, route
 * pattern, status, time, workspace, and the request id pino binds to every line. The route is the
 * pattern (`/api/activities/:activityId`), never the URL, so no id, token or query value reaches it.
 * Fastify's own two lines per request (received, completed) are turned off in buildApp.
 *
 * The line is written in pino's own format (its level and time, then the logger's bound fields, then
 * ours, then `msg`) to the logger's destination directly: it has the same fields on every request,
 * none of them a secret to redact, and pino's general formatting of an object cost more than the rest
 * of a cheap read's logging together.
 */
export const accessLog = fp(async (app: FastifyInstance) => {
  app.addHook('onResponse', (request, reply, done) => {
    const log = request.log as pino.Logger;
    // One hook per answered request, for the line and the metrics both: the route is read once.
    const route = request.routeOptions.url;
    app.metrics?.answered(route, request, reply);
    if (log.isLevelEnabled('info')) {
      const workspace = request.workspace as Workspace | null | undefined;
      destinationOf(log).write(
        `{"level":30,"time":${Date.now()}${boundFieldsOf(log)},"method":${JSON.stringify(request.method)},` +
          `"route":${route === undefined ? 'null' : JSON.stringify(route)},"status":${reply.statusCode},` +
          `"ms":${Math.round(reply.elapsedTime * 100) / 100},"workspace":${workspace ? JSON.stringify(workspace.domain) : 'null'},"msg":"request"}\n`,
      );
    }
    done();
  });
});

/** Log lines are handed to the operating system in batches of about this many characters, and at least every LOG_FLUSH_MS. */
const LOG_BATCH_CHARS = 12_288;
const LOG_FLUSH_MS = 250;

/** What the server and its crash handler need of the log destination. */
export interface LogDestination {
  write(line: string): boolean;
  /** Hands the lines gathered so far on to be written (asynchronously). */
  flush(): void;
  /** Writes everything gathered and handed on before returning (shutdown, a crash). */
  flushSync(): void;
}

/**
 * Standard output as the server's log destination: lines are gathered here and each batch goes to
 * pino's asynchronous destination (sonic-boom) in one write, behind the request (one write per line
 * cost a hand-over to another thread per request; docs/operations.md, "Logs" says what a kill -9 may lose). The
 * batching is ours, not sonic-boom's `minLength`: that measures the whole pending text on every line
 * (`Buffer.byteLength` of up to 16 KiB), which cost more than formatting the line.
 */
export function batchedLogDestination(): LogDestination {
  const out = pino.destination({ dest: 1, sync: false });
  let lines: string[] = [];
  let chars = 0;
  const handOver = () => {
    if (lines.length === 0) return;
    const text = lines.join('');
    lines = [];
    chars = 0;
    out.write(text);
  };
  setInterval(handOver, LOG_FLUSH_MS).unref();
  return {
    write(line) {
      lines.push(line);
      chars += line.length;
      if (chars >= LOG_BATCH_CHARS) handOver();
      return true;
    },
    flush: handOver,
    flushSync() {
      handOver();
      out.flushSync();
    },
  };
}
