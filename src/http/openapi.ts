import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { workspaceUrl } from '../config.js';
import { ProblemSchema } from './schemas.js';

export const API_VERSION = '2026-07-04';

const DESCRIPTION = `
The timetrack API: one organization workspace per hostname (\`acme.example.com/api/…\`).

Decisions this document records where the API reference is silent:
- **Errors** are \`application/problem+json\` (RFC 9457) with \`type\`, \`title\`, \`status\`, \`detail\`,
  \`code\` and, for 422, \`errors: [{pointer, message}]\`. 400 unparseable JSON, 401 bad or missing
  token (\`WWW-Authenticate: Bearer\`), 403 role, 404 unknown host, route or record (also records the
  caller may not see), 405 other method (\`Allow\`), 409 state or uniqueness, 413 body over 1 MiB,
  415 body not JSON, 422 schema or rule, 423 locked timesheet week, 429 rate limit (\`Retry-After\`).
- **Ids** in paths are opaque: a malformed id is 404. Collections are objects keyed by id, in creation order.
- **Timestamps** in carry an offset (422 without); out they are UTC with milliseconds and \`Z\`.
- **Bodies** are open objects: unknown and server-owned fields are ignored. Types are never coerced.
  A body nests at most 32 levels of objects and arrays (free-form values included): deeper is 422 with a pointer.
- **Text** is well-formed Unicode without NUL: a string (or key) holding a lone surrogate escape (\`\\ud800\`)
  or U+0000 is 422 in a body or query value and 404 in a path id, since no store keeps it as sent.
- **Units**: \`rounding.interval\` minutes, \`lockingTimesheets.unlockDuration\` hours, \`taxRate\` percent 0–100.
- **Permissions**: each operation's \`x-permission\` names the permission it needs. A role that holds it in no scope
  is 403 before the body is read; otherwise the record decides (own, project member, project admin, all).
- **Tokens**: API keys (\`ttk_…\`, per user and workspace) or session access tokens (\`tts_…\`, per account, 12 h).
  Only their SHA-256 digests are stored, and no token is ever logged (not even one sent in a URL). The one copy
  of a secret at rest is a support sign-in link in the outbox, kept as the message to deliver: single-use, one hour.
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

/** The OpenAPI 3.0.3 document, generated from the route schemas, and its interactive docs. */
export const openapi = fp(async (app: FastifyInstance) => {
  app.addSchema(ProblemSchema);
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: { title: 'timetrack API', version: API_VERSION, description: DESCRIPTION },
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
        },
      },
      security: [{ bearerAuth: [] }],
    },
    // Each operation names the permission of the policy it needs (src/domain/policy.ts), from the route's own config.
    transform: ({ schema, url, route }) => ({
      schema: route.config?.permission ? { ...schema, 'x-permission': route.config.permission } : schema,
      url,
    }),
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`),
    },
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });

  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());
});
