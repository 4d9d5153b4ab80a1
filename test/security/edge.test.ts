import { expect, it } from 'vitest';
import { describeEachStore, type Harness } from '../support/harness.js';
import { redactSecretParameters, redactUrl, type RedactionWork } from '../support/src.js';

/**
 * The HTTP edge: what an outsider can send before any rule of the product is reached
 * (docs/rules.md §2 "Links and secrets in logs", §3, §4 "Request bodies").
 */

/** The work redactUrl does on a text, counted in characters looked at. */
function workOn(text: string): number {
  const work: RedactionWork = { steps: 0 };
  redactUrl(text, work);
  return work.steps;
}

/** Texts built to make a backtracking pattern rescan: many parameter starts, long names, no `=`. */
const ADVERSARIAL: Array<(n: number) => string> = [
  (n) => '/api/auth?' + '?'.repeat(n),
  (n) => '/api/auth?' + 'a'.repeat(n),
  (n) => '/api/auth?' + '?token'.repeat(n / 6),
  (n) => '/api/auth?' + ';key?'.repeat(n / 5),
  (n) => '/api/auth?x=1&' + 'password'.repeat(n / 8),
  (n) => '/api/auth?' + '%74'.repeat(n / 3),
];

describeEachStore('The HTTP edge: logs', (h: Harness) => {
  it('redacting a URL is linear work: twice the text, at most about twice the work, on texts built against it', () => {
    for (const make of ADVERSARIAL) {
      const small = workOn(make(15_000));
      const large = workOn(make(30_000));
      expect(large / small).toBeLessThan(2.2);
      expect(large).toBeLessThanOrEqual(5 * 30_100);
    }
  });

  it('secret parameters are cut out as before on adversarial texts, and only their values', () => {
    expect(redactSecretParameters('/a?' + '?'.repeat(10) + 'token=s1&ok=1')).toBe('/a???????????token=[redacted]&ok=1');
    expect(redactSecretParameters('/a?' + 'x'.repeat(50) + '&api_key=s2#frag')).toBe('/a?' + 'x'.repeat(50) + '&api_key=[redacted]#frag');
    expect(redactSecretParameters('/a;Auth=s3;x=1?password=s4=5')).toBe('/a;Auth=[redacted];x=1?password=[redacted]');
    expect(redactSecretParameters('/a?token&key#=1&x=token')).toBe('/a?token&key#=1&x=token');
  });

  it('a 15,000-character query is not logged: its access line names the route pattern, whatever the query holds', async () => {
    const ws = await h.workspace();
    const filler = '?'.repeat(15_000);
    const before = h.logs.length;
    await h.call('GET', `/api/auth?${filler}`, { host: ws.host, token: ws.admin.token, headers: { 'x-request-id': 'long-query-1' } });
    await h.call('GET', `/api/auth?${filler}&secret=never-logged-value`, { host: ws.host, token: ws.admin.token, headers: { 'x-request-id': 'long-query-2' } });
    const lines = h.logs.slice(before).map((line) => JSON.parse(line));
    expect(lines.filter((line) => line.reqId?.startsWith('long-query-')).map((line) => line.route)).toEqual(['/api/auth', '/api/auth']);
    expect(h.logs.slice(before).every((line) => line.length < 1_000)).toBe(true);
    expect(h.logs.slice(before).join('\n')).not.toContain('never-logged-value');
  });

  it('a percent-encoded token in a path or a query is in no log line: the access line names the route pattern, not the URL', async () => {
    const ws = await h.workspace();
    const token = ws.admin.token;
    const encoded = token.slice(0, 2) + '%' + token.charCodeAt(2).toString(16) + token.slice(3); // ttk_ → tt%6b_
    const everyCharacter = [...token].map((c) => '%' + c.charCodeAt(0).toString(16).padStart(2, '0')).join('');
    await h.call('GET', `/api/users/${encoded}`, { host: ws.host, token });
    await h.call('GET', `/api/users/${everyCharacter}`, { host: ws.host, token });
    await h.call('GET', `/api/auth?%74oken=plain-secret`, { host: ws.host, token });
    expect(redactUrl(`/api/users/${encoded}`)).toBe('/api/users/ttk_[redacted]');
    const logged = h.logs.join('\n');
    expect(logged).not.toContain(token.slice(4));
    expect(logged).not.toContain(token.slice(5, 20));
    expect(logged).not.toContain('plain-secret');
    expect(logged).toContain('"route":"/api/users/:userId"');
    expect(logged).not.toContain('"url"');
  });

  it('an X-Request-Id shaped like a token is neither logged nor echoed: the request gets a fresh id', async () => {
    const ws = await h.workspace();
    const token = ws.admin.token;
    for (const given of [token, `trace-${token}`, `tts_${token.slice(4)}`]) {
      const answer = await h.call('GET', '/api/auth', { host: ws.host, token, headers: { 'x-request-id': given } });
      expect(answer.status).toBe(200);
      expect(answer.headers['x-request-id']).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    }
    expect(h.logs.join('\n')).not.toContain(token.slice(4));
    // A plain one is still kept.
    const plain = await h.call('GET', '/api/auth', { host: ws.host, token, headers: { 'x-request-id': 'trace-42.a:b' } });
    expect(plain.headers['x-request-id']).toBe('trace-42.a:b');
  });
});

/** A value nested `levels` objects and arrays deep, built as text (a value this deep cannot be built and then stringified). */
const JSON_TYPE = { 'content-type': 'application/json' };
const nested = (levels: number): string => '{"a":['.repeat(levels / 2) + '1' + ']}'.repeat(levels / 2);

describeEachStore('The HTTP edge: deep JSON', (h: Harness) => {
  it('a body nested deeper than 32 levels is 422 with the pointer of the first value past the limit, never 500, with or without a token', async () => {
    const ws = await h.workspace();
    const pastTheLimit = '/body' + '/a/0'.repeat(16);
    for (const token of [undefined, ws.admin.token]) {
      for (const levels of [34, 100_000]) {
        const answer = await h.call('POST', '/api/auth/one-time', { host: ws.host, token, payload: nested(levels), headers: JSON_TYPE });
        expect(answer.status).toBe(422);
        expect(answer.body).toMatchObject({ code: 'validation', errors: [{ pointer: pastTheLimit, message: 'nests deeper than 32 levels of objects and arrays' }] });
      }
    }
    // 32 levels are still read (and answered by the route's own rules).
    const within = await h.call('POST', '/api/auth/one-time', { host: ws.host, payload: nested(32), headers: JSON_TYPE });
    expect(JSON.stringify(within.body)).not.toContain('nests deeper');
  });

  it('deep nesting inside the free-form holidays and report filters is 422 with its pointer, and nothing is stored', async () => {
    const ws = await h.workspace();
    const holidays = await h.call('PUT', '/api/organization', { host: ws.host, token: ws.admin.token, payload: `{"holidays":{"x":${nested(50_000)}}}`, headers: JSON_TYPE });
    expect(holidays.status).toBe(422);
    expect(holidays.body.errors[0].pointer).toBe('/body/holidays/x' + '/a/0'.repeat(15));
    const report =
      '{"name":"Deep","period":"custom","start":"2026-01-01T00:00:00.000Z","end":"2026-02-01T00:00:00.000Z",' +
      `"dimensions":["project"],"metrics":["time"],"filters":[${nested(50_000)}]}`;
    const reports = await h.call('POST', '/api/reports', { host: ws.host, token: ws.admin.token, payload: report, headers: JSON_TYPE });
    expect(reports.status).toBe(422);
    expect(reports.body.errors[0].pointer).toBe('/body/filters/0' + '/a/0'.repeat(15));
    expect((await h.call('GET', '/api/reports', { host: ws.host, token: ws.admin.token })).body).toEqual({});
  });
});
