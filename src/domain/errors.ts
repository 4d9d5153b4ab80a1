/** The kinds of failure the API answers with (docs/rules.md §3). Throw these; the error handler renders them. */

export type ProblemCode =
  | 'bad-request'
  | 'unauthorized'
  | 'forbidden'
  | 'two-factor-required'
  | 'not-found'
  | 'workspace-not-found'
  | 'method-not-allowed'
  | 'request-timeout'
  | 'conflict'
  | 'payload-too-large'
  | 'unsupported-media-type'
  | 'gone'
  | 'validation'
  | 'timesheet-locked'
  | 'rate-limited'
  | 'headers-too-large'
  | 'provider-unavailable'
  | 'internal'
  | 'busy';

export const PROBLEM_STATUS: Record<ProblemCode, number> = {
  'bad-request': 400,
  unauthorized: 401,
  forbidden: 403,
  'two-factor-required': 403,
  'not-found': 404,
  'workspace-not-found': 404,
  'method-not-allowed': 405,
  'request-timeout': 408,
  conflict: 409,
  'payload-too-large': 413,
  'unsupported-media-type': 415,
  gone: 410,
  validation: 422,
  'timesheet-locked': 423,
  'rate-limited': 429,
  'headers-too-large': 431,
  'provider-unavailable': 502,
  internal: 500,
  busy: 503,
};

export const PROBLEM_TITLE: Record<ProblemCode, string> = {
  'bad-request': 'Bad request',
  unauthorized: 'Unauthorized',
  forbidden: 'Forbidden',
  'two-factor-required': 'Two-factor enrolment required',
  'not-found': 'Not found',
  'workspace-not-found': 'Workspace not found',
  'method-not-allowed': 'Method not allowed',
  'request-timeout': 'Request timeout',
  conflict: 'Conflict',
  'payload-too-large': 'Payload too large',
  'unsupported-media-type': 'Unsupported media type',
  gone: 'Gone',
  validation: 'Validation failed',
  'timesheet-locked': 'Timesheet locked',
  'rate-limited': 'Too many requests',
  'headers-too-large': 'Request header fields too large',
  'provider-unavailable': 'Sign-in provider unavailable',
  internal: 'Internal server error',
  busy: 'Busy: send the request again',
};

/**
 * The problem a bare status stands for (an error Fastify or a plugin raised with a status only, or a
 * status the OpenAPI document lists): the general code of that status, never a specific one that
 * shares it (403 is `forbidden`, not `two-factor-required`; 404 is `not-found`, not `workspace-not-found`).
 */
export const GENERAL_PROBLEM_OF_STATUS: Readonly<Record<number, ProblemCode>> = {
  400: 'bad-request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not-found',
  405: 'method-not-allowed',
  408: 'request-timeout',
  409: 'conflict',
  410: 'gone',
  413: 'payload-too-large',
  415: 'unsupported-media-type',
  422: 'validation',
  423: 'timesheet-locked',
  429: 'rate-limited',
  431: 'headers-too-large',
  503: 'busy',
};

/** A stable URI per kind of problem (RFC 9457 `type`). */
export const problemType = (code: ProblemCode): string => `urn:timetrack:problem:${code}`;

export interface FieldError {
  /** JSON Pointer into the request: `/body/startedAt`, `/query/from`, `/path/week`. */
  pointer: string;
  message: string;
}

export class ApiError extends Error {
  readonly status: number;

  constructor(
    readonly code: ProblemCode,
    readonly detail: string,
    readonly errors?: FieldError[],
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
    this.status = PROBLEM_STATUS[code];
  }
}

export const notFound = (what = 'record') => new ApiError('not-found', `No such ${what}.`);
export const forbidden = (detail = 'Your role does not allow this.') => new ApiError('forbidden', detail);
export const conflict = (detail: string) => new ApiError('conflict', detail);
/** What the request points at existed once and is kept no longer (an expired change-feed cursor). */
export const gone = (detail: string) => new ApiError('gone', detail);
export const unauthorized = (detail = 'A valid bearer token is required.') =>
  new ApiError('unauthorized', detail, undefined, { 'www-authenticate': 'Bearer' });

/**
 * The `detail` of a problem about one field: a sentence whose subject is the field's JSON Pointer, e.g.
 * `/body/endedAt must not be before startedAt.` The message (also the field error's `message`) is the
 * predicate, so it never repeats the field's name.
 */
export const fieldDetail = (pointer: string, message: string): string =>
  `${pointer} ${message}${/[.!?]$/.test(message) ? '' : '.'}`;

/** A rule broken by one field: 422 pointing at it. */
export const invalid = (pointer: string, message: string) =>
  new ApiError('validation', fieldDetail(pointer, message), [{ pointer, message }]);
