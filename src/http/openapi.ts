import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { supportAddress, workspaceUrl } from '../config.js';
import { ProblemSchema } from '../route-kit/schemas.js';

export const API_VERSION = '2026-07-04';

const DESCRIPTION = `
The timetrack API: one organization workspace per hostname (\`acme.example.com/api/…\`).

Decisions this document records where the API reference is silent:
- **Errors** are \`application/problem+json\` (RFC 9457) with \`type\`, \`title\`, \`status\`, \`detail\`,
  \`code\` and, for 422, \`errors: [{pointer, message}]\`. 400 unparseable JSON, 401 bad or missing
  token (\`WWW-Authenticate: Bearer\`), 403 role, 404 unknown host, route or record (also records the
  caller may not see), 405 other method, QUERY included (\`Allow\`), 409 state or uniqueness, 413 body over 1 MiB,
  415 body not JSON, 422 schema or rule, 423 locked timesheet week, 429 rate limit (\`Retry-After\`),
  503 busy: concurrent changes collided with this one several times in a row and it changed nothing (\`Retry-After\`).
- **Ids** in paths are opaque: a malformed id is 404. Collections are objects keyed by id, in creation order.
- **Timestamps** in carry an offset (422 without); out they are UTC with milliseconds and \`Z\`.
- **Bodies** are open objects: unknown and server-owned fields are ignored. Types are never coerced.
  A body nests at most 32 levels of objects and arrays (free-form values included): deeper is 422 with a pointer.
- **Text** is well-formed Unicode without NUL: a string (or key) holding a lone surrogate escape (\`\\ud800\`)
  or U+0000 is 422 in a body or query value and 404 in a path id, since no store keeps it as sent.
- **Units**: \`rounding.interval\` minutes, \`lockingTimesheets.unlockDuration\` hours, \`taxRate\` percent 0–100.
- **Permissions**: each operation's \`x-permission\` names the permission it needs. A role that holds it in no scope
  is 403 before the body is read; otherwise the record decides (own, project member, project admin, all).
- **Tokens**: API keys (\`ttk_…\`, per user and workspace) or session access tokens (\`tts_…\`, per account, 12 h,
  ended after 2 idle hours), sent as \`Authorization: Bearer\` or, from a browser, as the cookie
  \`timetrack_access_token\` that every sign-in sets (then a write needs the workspace's own \`Origin\`: CSRF).
  Only their SHA-256 digests are stored, and no token is ever logged (not even one sent in a URL). The one copy
  of a secret at rest is a mailed one-time link in the outbox, kept only while it can be used. Passwords are
  stored as Argon2id digests only.
- **Hosts**: only the one \`Host\` header selects the workspace. X-Forwarded-Host, Forwarded and the like never do;
  two Host headers, or an absolute-form request line (\`GET http://b.example.com/api/…\`) naming another host
  than Host, select none (404 \`workspace-not-found\`). Links the service writes come from PUBLIC_URL.
- **Limits**: every string and array a request takes is bounded (maxLength, maxItems); bodies up to 1 MiB (413).
  Request headers must arrive within 10 s and the whole request within 30 s, else 408 \`request-timeout\` and the
  connection closes; idle keep-alive connections close after 5 s (the operator can set all three). Requests that
  are not well-formed HTTP are 400 \`bad-request\`, headers over 16 KiB 431 \`headers-too-large\`, each as
  problem+json on a connection that then closes.
- **Writes**: an answer to a write is sent once the write is on disk (SQLite: one flush of the log for every
  write since the last, after their commit; PostgreSQL: its COMMIT).
`.trim();

/** One description per tag an operation uses, listed in this order (a tag missing here fails test/operator/openapi.test.ts). */
export const TAG_DESCRIPTIONS: Record<string, string> = {
  Workspace:
    'The workspace of the host: its organization and settings, the caller\'s auth snapshot, the workspaces of the ' +
    'caller\'s account, and the one-time support sign-in.',
  'Sign-in': 'How people get in (docs/rules.md §7, §8): mailed one-time links, passwords, browser sessions and their ' +
    'cookie, signing out and ending other sessions, finding one\'s workspaces; two-factor codes (TOTP) and the second ' +
    'step of a sign-in, the workspace\'s sign-in settings, and single sign-on with OpenID Connect.',
  'API keys': 'The caller\'s own API keys (`ttk_…`): list, create (the secret is shown once) and revoke.',
  Users: 'The people of the workspace: invitations, roles, archiving, each user\'s preferences and cost rates.',
  Clients: 'The clients the workspace bills: administrators write them; a User reads the clients of their projects.',
  Projects: 'The projects of the workspace.',
  'Project members': 'Who belongs to a project, and who administers it (project admins).',
  Tasks: 'The tasks of a project: read by whoever reads the project, written by administrators and the project\'s admins.',
  Activities: 'Time entries: finished activities and running timers (pending), alone and listed.',
  'Revenue rates': 'What an hour of a project member is billed at, from a start to an optional end.',
  Billing: 'The workspace\'s subscriptions, checkout links, billing transactions and app-store receipts.',
  Geofences: 'Places (a centre and a radius) with the actions a client runs on entering and leaving them, optionally tied to a project.',
  Tags: 'Labels for time ("meeting", "bug"): every user reads and creates them, administrators rename, archive and delete them.',
  Changes: 'The change feed: every committed change of the workspace\'s records, in commit order, from a cursor (for sync clients and webhooks).',
  Reports: 'Saved report definitions: a time span, the selected projects and members, and filters.',
  Requests: 'Workflow requests (role changes, project assignments, support impersonation, timesheet unlocks and approvals) and their resolution.',
  Timesheets: 'Weekly timesheet locks: which weeks are closed to changes, and for whom they are reopened.',
  Imports:
    'Switching in and out: another tool\'s export imported in the background (Toggl, Clockify, Harvest, Kimai, solidtime, or timetrack\'s own), ' +
    'and every record of the workspace exported as one ZIP.',
  Webhooks:
    'Signed HTTP callbacks for the workspace\'s changes (envelope: WebhookEnvelope; signature: ' +
    '`Timetrack-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`), delivered at least once, in order per webhook, ' +
    'with their delivery log. See docs/webhooks.md for verification.',
};

/** Response headers the service sends, declared once and referred to by each response that carries them. */
const HEADERS = {
  Link: {
    description:
      'On a full page of a listing that takes `limit`: `<…>; rel="next"`, the same path and filters with the opaque `cursor` of the next page. ' +
      'On every answer of the change feed: the same path with `after` set to the answer\'s `cursor`.',
    schema: { type: 'string' },
  },
  RequestId: {
    description:
      'The id of this request in the log: the `x-request-id` the client sent when it is 1–128 characters of ' +
      '`A-Za-z0-9._:-`, else a new UUID. On every response.',
    required: true,
    schema: { type: 'string', maxLength: 128 },
  },
  RateLimitLimit: {
    description: 'Requests allowed per minute by the limit that counted this one (absent while the counter store does not answer).',
    schema: { type: 'integer', minimum: 0 },
  },
  RateLimitRemaining: {
    description: 'Requests left in the current minute.',
    schema: { type: 'integer', minimum: 0 },
  },
  RateLimitReset: {
    description: 'Seconds until the current window ends.',
    schema: { type: 'integer', minimum: 0 },
  },
  RetryAfter: {
    description: 'Seconds to wait before the next request is counted again.',
    required: true,
    schema: { type: 'integer', minimum: 0 },
  },
  WwwAuthenticate: {
    description: 'The scheme to authenticate with: `Bearer`.',
    required: true,
    schema: { type: 'string', enum: ['Bearer'] },
  },
  CacheControl: {
    description: '`no-store` on every answer to an authenticated caller, and on the one-time sign-in: none may be cached.',
    schema: { type: 'string', enum: ['no-store'] },
  },
  ContentDisposition: {
    description:
      'On a file (a report as CSV, XLSX or PDF): `attachment` with its `filename` in ASCII (other characters `_`) and ' +
      '`filename*` in UTF-8 (RFC 6266, RFC 8187).',
    schema: { type: 'string' },
  },
  Allow: {
    description: 'The methods the path takes, comma-separated.',
    required: true,
    schema: { type: 'string' },
  },
} as const;

/** Operations that answer in pages (`limit` with `cursor` or `after`): their 200 may carry Link. */
const PAGED_OPERATIONS = new Set(['listActivities', 'listChanges', 'getReportEntries', 'runReportEntries']);
const headerRef = (name: keyof typeof HEADERS) => ({ $ref: `#/components/headers/${name}` });
const RATE_LIMIT_HEADERS = {
  'RateLimit-Limit': headerRef('RateLimitLimit'),
  'RateLimit-Remaining': headerRef('RateLimitRemaining'),
  'RateLimit-Reset': headerRef('RateLimitReset'),
};
/** Public operations that still answer `Cache-Control: no-store` (src/areas/access/sign-in/link/one-time-sign-in-routes.ts). */
const NO_STORE_PUBLIC_OPERATIONS = new Set(['redeemOneTimeSignIn', 'signInWithPassword', 'verifyTwoFactor']);
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

interface DocOperation {
  operationId: string;
  tags?: string[];
  security?: unknown[];
  requestBody?: { content?: Record<string, { schema?: { $ref?: string } }> };
  responses?: Record<string, { headers?: Record<string, unknown>; content?: Record<string, unknown> }>;
}

interface Doc {
  paths?: Record<string, Record<string, DocOperation | undefined>>;
  components?: Record<string, Record<string, unknown> | undefined>;
  tags?: { name: string; description?: string }[];
}

/**
 * What the route schemas cannot say, added to the generated document in one place: each operation's
 * request body becomes the named component `<OperationId>Body` (so generated clients get named input
 * types), each response declares the headers it carries, and the tags used are listed with descriptions.
 */
export function completeDocument<T>(document: T): T {
  const doc = structuredClone(document) as Doc;
  const components = (doc.components ??= {});
  const schemas = (components.schemas ??= {});
  components.headers = { ...HEADERS };
  components.responses = {
    MethodNotAllowed: {
      description:
        'A known path with a method it does not take (QUERY included): 405 `method-not-allowed`, never reaching an operation.',
      headers: { Allow: headerRef('Allow'), 'x-request-id': headerRef('RequestId') },
      content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
    },
  };
  const tagsUsed = new Set<string>();
  for (const item of Object.values(doc.paths ?? {})) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      for (const tag of op.tags ?? []) tagsUsed.add(tag);
      const body = op.requestBody?.content?.['application/json'];
      if (body?.schema && !body.schema.$ref) {
        const name = `${op.operationId[0].toUpperCase()}${op.operationId.slice(1)}Body`;
        schemas[name] = { title: name, ...body.schema };
        body.schema = { $ref: `#/components/schemas/${name}` };
      }
      const authenticated = !(Array.isArray(op.security) && op.security.length === 0);
      for (const [status, response] of Object.entries(op.responses ?? {})) {
        const headers: Record<string, unknown> = { 'x-request-id': headerRef('RequestId'), ...RATE_LIMIT_HEADERS };
        if (status === '401') headers['WWW-Authenticate'] = headerRef('WwwAuthenticate');
        if (status === '429' || status === '503') headers['Retry-After'] = headerRef('RetryAfter');
        const noStore = authenticated ? status !== '401' && status !== '429' : NO_STORE_PUBLIC_OPERATIONS.has(op.operationId) && status === '200';
        if (noStore) headers['Cache-Control'] = headerRef('CacheControl');
        if (status === '200' && PAGED_OPERATIONS.has(op.operationId)) headers.Link = headerRef('Link');
        if (Object.keys(response.content ?? {}).some((mediaType) => !mediaType.endsWith('json'))) {
          headers['Content-Disposition'] = headerRef('ContentDisposition');
        }
        response.headers = { ...response.headers, ...headers };
      }
    }
  }
  const known = Object.keys(TAG_DESCRIPTIONS).filter((tag) => tagsUsed.has(tag));
  const unknown = [...tagsUsed].filter((tag) => !(tag in TAG_DESCRIPTIONS));
  doc.tags = [...known, ...unknown].map((name) => ({ name, ...(TAG_DESCRIPTIONS[name] ? { description: TAG_DESCRIPTIONS[name] } : {}) }));
  return doc as T;
}

/** The OpenAPI 3.0.3 document, generated from the route schemas, and its interactive docs. */
export const openapi = fp(async (app: FastifyInstance) => {
  app.addSchema(ProblemSchema);
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'timetrack API',
        version: API_VERSION,
        description: DESCRIPTION,
        license: { name: 'MIT', url: 'https://opensource.org/licenses/MIT' },
        contact: { name: 'Support of this timetrack installation', email: supportAddress(app.config), url: app.config.publicUrl },
      },
      servers: [
        {
          url: `${workspaceUrl(app.config, '{workspace}')}/api`,
          description: 'A workspace: its domain selects the organization',
          variables: { workspace: { default: 'demo' } },
        },
      ],
      components: {
        securitySchemes: {
          bearerAuth: {
            type: 'http',
            scheme: 'bearer',
            description: 'An API key (ttk_…) or a session access token (tts_…)',
          },
          sessionCookie: {
            type: 'apiKey',
            in: 'cookie',
            name: 'timetrack_access_token',
            description:
              'The browser session: a session access token (tts_…) set by every sign-in, used when no Authorization ' +
              'header is sent. A write (any method but GET, HEAD, OPTIONS) with it must send this workspace\'s own ' +
              'Origin, and no Sec-Fetch-Site but same-origin: 403 otherwise (CSRF).',
          },
        },
      },
      security: [{ bearerAuth: [] }, { sessionCookie: [] }],
    },
    // Each operation names the permission of the policy it needs (src/domain/policy.ts), from the route's own config.
    transform: ({ schema, url, route }) => ({
      schema: route.config?.permission ? { ...schema, 'x-permission': route.config.permission } : schema,
      url,
    }),
    transformObject: (documentObject) =>
      'openapiObject' in documentObject ? completeDocument(documentObject.openapiObject) : documentObject.swaggerObject,
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`),
    },
  });
  await app.register(swaggerUi, {
    routePrefix: '/api/docs',
    // Swagger UI runs on every workspace host with the session cookie at hand: it may not be framed, and
    // it runs its own files only (docs/web-app.md "Serving").
    staticCSP: {
      'default-src': ["'self'"],
      'script-src': ["'self'"],
      'style-src': ["'self'", "'unsafe-inline'"],
      'img-src': ["'self'", 'data:'],
      'connect-src': ["'self'"],
      'object-src': ["'none'"],
      'base-uri': ["'none'"],
      'form-action': ["'self'"],
      'frame-ancestors': ["'none'"],
    },
    uiHooks: {
      onRequest: (_request, reply, done) => {
        reply.header('x-frame-options', 'DENY');
        done();
      },
    },
  });

  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());
});
