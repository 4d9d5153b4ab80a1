import { Validator } from '@seriousme/openapi-schema-validator';
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

  it('gives every operation an operationId, a tag, bearer security, a 200 schema and problem responses', async () => {
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
        if (op.security === undefined) expect(doc.security).toEqual([{ bearerAuth: [] }]);
        expect(op.responses['200'].content['application/json'].schema, where).toBeDefined();
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
