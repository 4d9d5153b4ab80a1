import { readdirSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { describeEachStore, type TestWorkspace } from '../support/harness.js';
import { WEB_ROOT } from '../support/src.js';

/** The app's first script, as the build named it (content-hashed). */
const entryScript = () => readdirSync(path.join(WEB_ROOT, 'assets')).find((name) => /^index-.*\.js$/.test(name))!;

describeEachStore('Web app serving', (h) => {
  let ws: TestWorkspace;
  beforeAll(async () => {
    ws = await h.workspace();
  });

  it('a workspace host answers the app at / and at every path outside /api, never cached, with strict security headers', async () => {
    for (const url of ['/', '/timesheet', '/profile/api-keys?x=1', '/sign-in/link']) {
      const page = await h.call('GET', url, { host: ws.host, headers: { accept: 'text/html' } });
      expect(page.status).toBe(200);
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(page.text).toContain('<div id="app"></div>');
      expect(page.text).toContain(`src="/assets/${entryScript()}"`);
      expect(page.headers['cache-control']).toBe('no-cache');
      const csp = String(page.headers['content-security-policy']);
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toContain('unsafe-inline');
      expect(csp).toContain("frame-ancestors 'none'");
      expect(page.headers['referrer-policy']).toBe('no-referrer');
      expect(page.headers['x-content-type-options']).toBe('nosniff');
      expect(page.headers['x-frame-options']).toBe('DENY');
    }
  });

  it('the page holds no inline script: every script is a file of this origin', async () => {
    const page = await h.call('GET', '/', { host: ws.host });
    const scripts = [...page.text.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, body] of scripts) {
      expect(attributes).toMatch(/src="\/assets\//);
      expect(body.trim()).toBe('');
    }
  });

  it('the bare domain answers the "find your workspace" page; an unknown host is 404 as under /api', async () => {
    const welcome = await h.call('GET', '/', { host: 'timetrack.test:3000' });
    expect(welcome.status).toBe(200);
    expect(welcome.text).toContain('Find your workspace');
    expect(welcome.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    const unknown = await h.call('GET', '/', { host: 'nobody.timetrack.test' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('workspace-not-found');
    expect((await h.call('GET', '/', { host: 'elsewhere.example' })).status).toBe(404);
  });

  it('a browser at an unknown workspace address gets a page saying so, with the way to find its workspace; a client asking JSON its problem', async () => {
    const browser = { host: 'nobody.timetrack.test', headers: { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' } };
    for (const url of ['/', '/timesheet']) {
      const page = await h.call('GET', url, browser);
      expect(page.status).toBe(404);
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(page.headers['cache-control']).toBe('no-store');
      expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(page.text).toContain('<h1>No workspace at this address</h1>');
      expect(page.text).toContain(`<a href="${h.app.config.publicUrl}">Find your workspace</a>`);
    }
    const client = await h.call('GET', '/', { host: 'nobody.timetrack.test', headers: { accept: 'application/json' } });
    expect(client.status).toBe(404);
    expect(client.headers['content-type']).toBe('application/problem+json; charset=utf-8');
    expect(client.body.code).toBe('workspace-not-found');
    const api = await h.call('GET', '/api/organization', browser);
    expect(api.body.code).toBe('workspace-not-found');
  });

  it('hashed assets are cached for good and sent compressed; a missing asset is 404', async () => {
    const asset = await h.call('GET', `/assets/${entryScript()}`, { host: ws.host, headers: { 'accept-encoding': 'br' } });
    expect(asset.status).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(asset.headers['content-type']).toMatch(/^(text|application)\/javascript/);
    expect(asset.headers['content-encoding']).toBe('br');
    expect(asset.headers.vary).toBe('Accept-Encoding');
    const plain = await h.call('GET', `/assets/${entryScript()}`, { host: ws.host, headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toBe('Accept-Encoding');
    const missing = await h.call('GET', '/assets/index-missing.js', { host: ws.host });
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('not-found');
  });

  it('the asset folder itself and a path out of it are refused as forbidden, never as a two-factor problem', async () => {
    for (const url of ['/assets/', '/assets/..%2fpackage.json']) {
      const res = await h.call('GET', url, { host: ws.host });
      expect([res.status, res.body.code, res.body.type], url).toEqual([403, 'forbidden', 'urn:timetrack:problem:forbidden']);
    }
  });

  it('every answer of the API, JSON and problems alike, says nosniff', async () => {
    const answers = [
      await h.call('GET', '/api/auth', { host: ws.host, token: ws.admin.token }),
      await h.call('GET', '/api/nope', { host: ws.host }),
      await h.call('GET', '/api/organization', { host: ws.host }),
      await h.call('GET', '/api/openapi.json', { host: ws.host }),
      await h.call('GET', '/healthz', { host: ws.host }),
    ];
    expect(answers.map((res) => res.status)).toEqual([200, 404, 401, 200, 200]);
    for (const res of answers) expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('the interactive docs may not be framed and run their own files only', async () => {
    for (const url of ['/api/docs/', '/api/docs/static/swagger-initializer.js', '/api/docs/json']) {
      const docs = await h.call('GET', url, { host: ws.host });
      expect(docs.status, url).toBe(200);
      const csp = String(docs.headers['content-security-policy']);
      expect(csp, url).toContain("frame-ancestors 'none'");
      expect(csp, url).toContain("script-src 'self';");
      expect(csp, url).toContain("default-src 'self'");
      expect(docs.headers['x-frame-options'], url).toBe('DENY');
      expect(docs.headers['x-content-type-options'], url).toBe('nosniff');
    }
  });

  it('the API, the probes and the docs keep their own answers (no page, no CSP on the API)', async () => {
    const unknownRoute = await h.call('GET', '/api/nope', { host: ws.host });
    expect(unknownRoute.status).toBe(404);
    expect(unknownRoute.body.code).toBe('not-found');
    expect(unknownRoute.headers['content-security-policy']).toBeUndefined();
    expect((await h.call('POST', '/api/nope', { host: ws.host, body: {} })).status).toBe(404);
    expect((await h.call('GET', '/api/nope', { host: 'nobody.timetrack.test' })).body.code).toBe('workspace-not-found');
    const auth = await h.call('GET', '/api/auth', { host: ws.host, token: ws.admin.token });
    expect(auth.status).toBe(200);
    expect(auth.headers['content-security-policy']).toBeUndefined();
    expect((await h.call('GET', '/healthz/extra', { host: ws.host })).status).toBe(404);
    expect((await h.call('GET', '/healthz', { host: ws.host })).body).toEqual({ status: 'ok' });
    const docs = await h.call('GET', '/api/docs/', { host: 'localhost' });
    expect(docs.status).toBe(200);
    expect(docs.text).toContain('swagger');
  });

  it('other methods on a page path are 404, as before the app existed', async () => {
    expect((await h.call('POST', '/timesheet', { host: ws.host, body: {} })).status).toBe(404);
    expect((await h.call('DELETE', '/', { host: ws.host })).status).toBe(404);
  });
});
