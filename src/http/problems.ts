import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import FindMyWay, { type HTTPMethod } from 'find-my-way';
import { ApiError, fieldDetail, GENERAL_PROBLEM_OF_STATUS, PROBLEM_TITLE, problemType, type FieldError } from '../domain/errors.js';
import { LongReadsExhausted } from '../db/database.js';
import { isForeignKeyViolation, isLockConflict } from '../db/errors.js';
import { deletedMeanwhile } from './authenticate.js';
import { resolveWorkspace } from './tenancy.js';

function problemBody(error: ApiError): Record<string, unknown> {
  const body: Record<string, unknown> = {
    type: problemType(error.code),
    title: PROBLEM_TITLE[error.code],
    status: error.status,
    detail: error.detail,
    code: error.code,
  };
  if (error.errors) body.errors = error.errors;
  return body;
}

/** Every error leaves as application/problem+json (RFC 9457), whoever raised it. */
export function sendProblem(reply: FastifyReply, error: ApiError): FastifyReply {
  return reply.code(error.status).headers(error.headers).header('x-content-type-options', 'nosniff').type('application/problem+json').send(problemBody(error));
}

/**
 * What Node rejects before a request reaches Fastify (a malformed request line or header, headers
 * over the size limit, a client too slow to send its request) is answered as a problem too, on the
 * raw socket, which then closes. Nothing is written to a socket already reset or closed.
 *
 * The server lets go of the socket itself instead of waiting for the client to close its end: a
 * client that never reads (or keeps sending after the answer) would otherwise hold the connection
 * until the socket's idle timeout (twice REQUEST_TIMEOUT_MS), and a thousand such connections use up
 * the process's file descriptors. A connection that sent nothing is released as soon as its answer is
 * handed to the kernel (which still delivers it); one that sent bytes gets CLIENT_ERROR_LINGER_MS to
 * read the answer first, since closing a socket with unread input resets the connection, which may
 * discard the answer on the client's side.
 */
export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const problem =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? new ApiError('request-timeout', 'The request did not arrive in time.')
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? new ApiError('headers-too-large', 'The request headers are too large.')
        : new ApiError('bad-request', 'The request is not well-formed HTTP.');
  const body = JSON.stringify(problemBody(problem));
  socket.end(
    `HTTP/1.1 ${problem.status} ${STATUS_CODES[problem.status]}\r\nContent-Type: application/problem+json\r\nX-Content-Type-Options: nosniff\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    () => {
      if (socket.bytesRead === 0) return socket.destroy();
      const linger = setTimeout(() => socket.destroy(), CLIENT_ERROR_LINGER_MS).unref();
      socket.once('close', () => clearTimeout(linger));
    },
  );
}

/** How long a connection answered with a client error may stay open for its client to read the answer. */
export const CLIENT_ERROR_LINGER_MS = 1_000;

const SCHEMA_PART: Record<string, string> = { body: 'body', querystring: 'query', params: 'path', headers: 'header' };

interface AjvError {
  instancePath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
}

function validationProblem(error: FastifyError): ApiError {
  const part = SCHEMA_PART[error.validationContext ?? 'body'] ?? 'body';
  const errors: FieldError[] = (error.validation as AjvError[]).map((e) => {
    let pointer = `/${part}${e.instancePath}`;
    if (e.keyword === 'required') pointer += `/${String(e.params.missingProperty)}`;
    return { pointer, message: e.message ?? 'is invalid' };
  });
  const first = errors[0];
  return new ApiError('validation', fieldDetail(first.pointer, first.message), errors);
}

/** Maps anything thrown to the problem it stands for; unexpected errors become a bare 500. */
export function toApiError(error: FastifyError | ApiError | Error, request: FastifyRequest): ApiError {
  if (error instanceof ApiError) return error;
  const fastifyError = error as FastifyError;
  if (fastifyError.validation) return validationProblem(fastifyError);
  switch (fastifyError.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError('unsupported-media-type', 'Send the body as application/json.');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError('payload-too-large', 'The body is larger than 1 MiB.');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ApiError('bad-request', 'The body is not valid JSON.');
    // A path the router cannot decode (bad percent-encoding) or with an overlong segment: ids in paths
    // are opaque, so a malformed one is simply no record (docs/rules.md §3), not a bad request.
    case 'FST_ERR_BAD_URL':
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return new ApiError('not-found', 'No such record or route: the path is malformed.');
  }
  // Every PostgreSQL transaction is rerun after a deadlock (rerunAfterLockConflict); one that collides
  // that often in a row changed nothing and may simply be sent again (docs/rules.md §3).
  if (isLockConflict(error)) {
    return new ApiError('busy', 'The request collided with concurrent changes to the same records several times in a row and changed nothing: send it again.', undefined, { 'retry-after': '1' });
  }
  if (error instanceof LongReadsExhausted) {
    return new ApiError('busy', 'Every database connection for long answers is taken: send the request again shortly, or read pages with limit.', undefined, { 'retry-after': '1' });
  }
  const status = fastifyError.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    const code = GENERAL_PROBLEM_OF_STATUS[status] ?? 'bad-request';
    const headers: Record<string, string> = {};
    const extra = (fastifyError as { headers?: Record<string, string> }).headers;
    if (status === 429 && extra) Object.assign(headers, extra);
    return new ApiError(code, fastifyError.message || PROBLEM_TITLE[code], undefined, headers);
  }
  request.log.error({ err: error }, 'unexpected error');
  return new ApiError('internal', 'Something went wrong on our side. The request id identifies it in the log.');
}

/**
 * The error and not-found handlers. Unknown paths are 404; a known path with another method is 405
 * with `Allow`, found in a router that mirrors every registered route.
 */
export const problems = fp(async (app: FastifyInstance) => {
  const routes = FindMyWay({ ignoreTrailingSlash: false });
  app.addHook('onRoute', (route) => {
    // The web app's catch-all takes every GET outside /api: it must not turn another method's 404 into a 405.
    if (route.config?.catchAll) return;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (!routes.hasRoute(method as HTTPMethod, route.url)) routes.on(method as HTTPMethod, route.url, () => {});
    }
  });

  // A foreign key no service expected to fail: a record the write refers to was deleted meanwhile (docs/rules.md §3).
  app.setErrorHandler(async (error: FastifyError, request, reply) =>
    sendProblem(reply, isForeignKeyViolation(error) ? await deletedMeanwhile(request.server, request) : toApiError(error, request)),
  );

  /** Unknown paths are 404; a known path with a method it does not take is 405 with `Allow`. */
  const answerUnrouted = async (request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split('?')[0];
    // Under /api an unknown host is reported as such, whatever the path.
    if (path.startsWith('/api/')) await resolveWorkspace(app, request);
    const allowed = (['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const).filter(
      (method) => routes.find(method, path) !== null,
    );
    // A route that takes this method and found nothing (a missing static asset) is a plain 404.
    if (allowed.length > 0 && !(allowed as readonly string[]).includes(request.method)) {
      return sendProblem(
        reply,
        new ApiError('method-not-allowed', `${request.method} is not allowed here.`, undefined, {
          allow: allowed.join(', '),
        }),
      );
    }
    return sendProblem(reply, new ApiError('not-found', `No route ${request.method} ${path}.`));
  };

  app.setNotFoundHandler(answerUnrouted);

  // No route takes QUERY (RFC 10008). It carries a body, so Fastify would check its Content-Type (400 without
  // one) before the not-found handler runs: this catch-all answers it first, as the not-found handler would.
  app.route({
    method: 'QUERY',
    url: '*',
    schema: { hide: true },
    onRequest: async (request, reply) => {
      await answerUnrouted(request, reply);
      return reply;
    },
    handler: async () => undefined,
  });
});
