import { Validator } from '@seriousme/openapi-schema-validator';
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { describeEachStore } from '../support/harness.js';

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

describeEachStore('OpenAPI document', (h) => {
  const load = async () => (await h.call('GET', '/api/openapi.json', { host: 'localhost' })).body;

  it('is served without a token as OpenAPI 3.0.3 with info.version 2026-07-04', async () => {
    const doc = await load();
    expect(doc.openapi).toBe('3.0.3');
    expect(doc.info.version).toBe('2026-07-04');
  });

  it('validates against the OpenAPI 3.0 schema', async () => {
    const validator = new Validator();
    const result = await validator.validate(await load());
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.0');
  });

  it('gives every operation an operationId, a tag, bearer (or session cookie) security, a 200 schema (or a 202 for work accepted into the background, or a 302 with Location) and problem responses', async () => {
    const doc = await load();
    const operationIds = new Set<string>();
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      expect(path.startsWith('/api/'), path).toBe(false);
      for (const method of METHODS) {
        const op = item[method];
        if (!op) continue;
        const where = `${method.toUpperCase()} ${path}`;
        expect(op.operationId, where).toMatch(/^[a-zA-Z]+$/);
        expect(operationIds.has(op.operationId), `${where} repeats an operationId`).toBe(false);
        operationIds.add(op.operationId);
        expect(op.tags?.length, where).toBe(1);
        if (op.security === undefined) expect(doc.security).toEqual([{ bearerAuth: [] }, { sessionCookie: [] }]);
        // The browser's single sign-on routes answer a redirect, not a body.
        if (op.responses['302']) expect(op.responses['302'].headers.Location, where).toBeDefined();
        else {
          const answer = op.responses['200'] ?? op.responses['202'];
          // JSON, or a file of one media type (GET /export's ZIP).
          const [content] = Object.values<any>(answer.content);
          expect(answer.content['application/json']?.schema ?? content.schema, where).toBeDefined();
        }
        expect(op.responses['404'].content['application/problem+json'].schema, where).toEqual({
          $ref: '#/components/schemas/Problem',
        });
        if (op.security === undefined) expect(op.responses['401'], where).toBeDefined();
        if (op.requestBody) {
          for (const status of ['400', '413', '415', '422']) expect(op.responses[status], `${where} ${status}`).toBeDefined();
        }
      }
    }
    expect(operationIds.size).toBeGreaterThanOrEqual(9);
  });

  const operations = (doc: any) =>
    Object.entries<any>(doc.paths).flatMap(([path, item]) =>
      METHODS.filter((method) => item[method]).map((method) => ({ where: `${method.toUpperCase()} ${path}`, op: item[method] })),
    );

  it('gives every operation a description beside its summary', async () => {
    const missing = operations(await load()).filter(({ op }) => !(typeof op.description === 'string' && op.description.trim() !== '' && op.description !== op.summary));
    expect(missing.map(({ where }) => where)).toEqual([]);
  });

  it('names every request body as the component <OperationId>Body, so generated clients get named input types', async () => {
    const doc = await load();
    let bodies = 0;
    for (const { where, op } of operations(doc)) {
      if (!op.requestBody) continue;
      bodies++;
      const name = `${op.operationId[0].toUpperCase()}${op.operationId.slice(1)}Body`;
      expect(op.requestBody.content['application/json'].schema, where).toEqual({ $ref: `#/components/schemas/${name}` });
      expect(doc.components.schemas[name], where).toMatchObject({ title: name, type: 'object' });
    }
    expect(bodies).toBeGreaterThanOrEqual(30);
  });

  it('lists every tag its operations use, each once with a description, and no other', async () => {
    const doc = await load();
    const used = new Set(operations(doc).flatMap(({ op }) => op.tags));
    expect(doc.tags.map((tag: any) => tag.name).sort()).toEqual([...used].sort());
    for (const tag of doc.tags) expect(tag.description, tag.name).toMatch(/\w{3}/);
  });

  it('states its license (MIT, as package.json does) and a contact: the support address', async () => {
    const doc = await load();
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    expect(doc.info.license).toEqual({ name: pkg.license, url: 'https://opensource.org/licenses/MIT' });
    expect(doc.info.contact).toEqual({
      name: 'Support of this timetrack installation',
      email: `support@${h.config.baseDomain}`,
      url: h.config.publicUrl,
    });
  });

  it('declares the response headers the service sends: x-request-id and RateLimit-* on every response, WWW-Authenticate on 401, Retry-After on 429 and 503, Cache-Control on authenticated answers, Allow on 405', async () => {
    const doc = await load();
    const ref = (name: string) => ({ $ref: `#/components/headers/${name}` });
    for (const name of ['RequestId', 'RetryAfter', 'WwwAuthenticate', 'Allow']) expect(doc.components.headers[name].required, name).toBe(true);
    for (const { where, op } of operations(doc)) {
      const authenticated = op.security === undefined;
      for (const [status, response] of Object.entries<any>(op.responses)) {
        const at = `${where} ${status}`;
        expect(response.headers['x-request-id'], at).toEqual(ref('RequestId'));
        expect(response.headers['RateLimit-Limit'], at).toEqual(ref('RateLimitLimit'));
        expect(response.headers['RateLimit-Remaining'], at).toEqual(ref('RateLimitRemaining'));
        expect(response.headers['RateLimit-Reset'], at).toEqual(ref('RateLimitReset'));
        expect(response.headers['WWW-Authenticate'], at).toEqual(status === '401' ? ref('WwwAuthenticate') : undefined);
        expect(response.headers['Retry-After'], at).toEqual(status === '429' || status === '503' ? ref('RetryAfter') : undefined);
        if (authenticated && status !== '401' && status !== '429') expect(response.headers['Cache-Control'], at).toEqual(ref('CacheControl'));
      }
    }
    expect(doc.paths['/auth/one-time'].post.responses['200'].headers['Cache-Control']).toEqual(ref('CacheControl'));
    expect(doc.components.responses.MethodNotAllowed.headers.Allow).toEqual(ref('Allow'));
  });

  it('declares the headers a real answer carries: a 200 to a token, a 401 and a 405', async () => {
    const ws = await h.workspace();
    const ok = await h.call('GET', '/api/organization', { host: ws.host, token: ws.admin.token });
    expect(ok.status).toBe(200);
    expect(ok.headers['cache-control']).toBe('no-store');
    expect(ok.headers['x-request-id']).toEqual(expect.any(String));
    for (const header of ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset']) expect(ok.headers[header], header).toMatch(/^\d+$/);
    const anonymous = await h.call('GET', '/api/organization', { host: ws.host });
    expect(anonymous.headers['www-authenticate']).toBe('Bearer');
    expect(anonymous.headers['cache-control']).toBeUndefined();
    const other = await h.call('PATCH', '/api/organization', { host: ws.host, token: ws.admin.token, body: {} });
    expect(other.headers.allow).toBe('GET, HEAD, PUT, DELETE');
  });

  it('describes the workspace server and the bearer scheme', async () => {
    const doc = await load();
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.servers[0].url).toBe(`http://{workspace}.${h.config.baseDomain}:3000/api`);
    expect(doc.paths['/organization'].get.operationId).toBe('getOrganization');
  });

  it('serves interactive docs at /api/docs', async () => {
    const res = await h.call('GET', '/api/docs/', { host: 'localhost' });
    expect([200, 302]).toContain(res.status);
    const page = res.status === 302 ? await h.call('GET', String(res.headers.location), { host: 'localhost' }) : res;
    expect(page.text).toMatch(/swagger/i);
  });
});
