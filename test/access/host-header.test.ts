import net from 'node:net';
import { beforeAll, expect, it } from 'vitest';
import { make } from '../support/factories/index.js';
import { as, BASE_DOMAIN, describeEachStore, type Harness } from '../support/harness.js';
import { listMessages } from '../support/src.js';

/**
 * Host header (docs/rules.md §2): only the one Host header selects a workspace.
 * Unknown, duplicated or conflicting host values and every forwarding header select none; and every
 * link the service writes comes from PUBLIC_URL, whatever Host or X-Forwarded-* say.
 * (Unknown and malformed hosts: test/access/tenancy.test.ts; two Host headers on a real server: test/operator/operator.test.ts.)
 */

/** One raw HTTP/1.1 exchange on a fresh connection (for request lines no HTTP client sends). */
function raw(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let received = '';
    const socket = net.connect(port, '127.0.0.1', () => socket.write(text));
    socket.on('data', (chunk) => (received += chunk));
    socket.on('close', () => resolve(received));
    socket.on('error', reject);
  });
}

const statusOf = (response: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(response)?.[1]);

describeEachStore('Host header', (h: Harness) => {
  let port: number;
  beforeAll(async () => {
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    port = (h.app.server.address() as net.AddressInfo).port;
  });

  const get = (target: string, headers: string[]) =>
    raw(port, `GET ${target} HTTP/1.1\r\n${headers.map((header) => `${header}\r\n`).join('')}Connection: close\r\n\r\n`);

  it('an absolute-form request line naming another host than Host selects no workspace: 404, whichever token (a real socket)', async () => {
    const a = await h.workspace();
    const b = await h.workspace();
    for (const token of [a.admin.token, b.admin.token]) {
      for (const [target, host] of [
        [`http://${b.host}/api/auth`, a.host],
        [`http://${a.host}/api/auth`, b.host],
        [`http://${b.host}/api/organization`, a.host],
        [`http://ghost.${BASE_DOMAIN}/api/auth`, a.host],
        [`http://${a.host}/api/auth`, 'localhost'],
      ]) {
        const response = await get(target, [`Host: ${host}`, `Authorization: Bearer ${token}`]);
        expect(statusOf(response), `${target} with Host ${host}`).toBe(404);
        expect(response).toContain('"code":"workspace-not-found"');
        expect(response).not.toContain(a.organizationId);
        expect(response).not.toContain(b.organizationId);
      }
    }
  });

  it('an absolute-form request line that agrees with Host (case and port aside) is served as usual (a real socket)', async () => {
    const a = await h.workspace();
    for (const [target, host] of [
      [`http://${a.host}/api/auth`, a.host],
      [`http://${a.host.toUpperCase()}:3000/api/auth`, `${a.host}:3000`],
      [`https://${a.host}/api/auth`, `${a.host}:443`],
    ]) {
      const response = await get(target, [`Host: ${host}`, `Authorization: Bearer ${a.admin.token}`]);
      expect(statusOf(response), target).toBe(200);
      expect(response).toContain(`"domain":"${a.domain}"`);
    }
  });

  it('two Host headers, the same or different, select no workspace (a real socket)', async () => {
    const a = await h.workspace();
    const b = await h.workspace();
    for (const hosts of [
      [a.host, a.host],
      [a.host, b.host],
      [b.host, a.host],
    ]) {
      const response = await get('/api/auth', [...hosts.map((host) => `Host: ${host}`), `Authorization: Bearer ${a.admin.token}`]);
      expect([400, 404]).toContain(statusOf(response));
      expect(response).not.toContain('"domain"');
    }
  });

  const FORWARDING = ['x-forwarded-host', 'x-original-host', 'x-host', 'x-forwarded-server'];

  it('no forwarding header selects a workspace: not X-Forwarded-Host, Forwarded, X-Original-Host, X-Host', async () => {
    const a = await h.workspace();
    const b = await h.workspace();
    for (const name of FORWARDING) {
      // At A's host they change nothing: B's token stays a stranger (401), A's is served as A.
      const stranger = await h.call('GET', '/api/auth', { host: a.host, token: b.admin.token, headers: { [name]: b.host } });
      expect(stranger.status, name).toBe(401);
      const own = await h.call('GET', '/api/auth', { host: a.host, token: a.admin.token, headers: { [name]: b.host } });
      expect(own.body.domain, name).toBe(a.domain);
      // At a host that is no workspace's they select none.
      const none = await h.call('GET', '/api/auth', { host: 'localhost', token: b.admin.token, headers: { [name]: b.host } });
      expect(none.status, name).toBe(404);
      expect(none.body.code).toBe('workspace-not-found');
    }
    const forwarded = await h.call('GET', '/api/auth', {
      host: 'localhost',
      token: b.admin.token,
      headers: { forwarded: `for=203.0.113.7;host=${b.host};proto=https` },
    });
    expect(forwarded.status).toBe(404);
  });

  /** PUBLIC_URL of the harness: http://timetrack.test:3000. The hostile headers below name other hosts, ports and schemes. */
  const PUBLIC_URL = `http://${BASE_DOMAIN}:3000`;
  const HOSTILE = {
    'x-forwarded-host': 'evil.example.com',
    'x-forwarded-proto': 'https',
    'x-forwarded-port': '6666',
    forwarded: 'for=203.0.113.7;host=evil.example.com;proto=https',
    'x-original-host': 'evil.example.com',
  };

  /** Every absolute URL in a text. */
  const urlsIn = (text: string) => text.match(/\bhttps?:\/\/[^\s"'<>)]+/g) ?? [];

  /** Each URL is PUBLIC_URL's origin, or a workspace under it (`http://<domain>.timetrack.test:3000`). */
  function expectFromPublicUrl(text: string, domain: string): void {
    const urls = urlsIn(text);
    expect(urls.length, text).toBeGreaterThan(0);
    for (const url of urls) expect([PUBLIC_URL, `http://${domain}.${BASE_DOMAIN}:3000`], url).toContain(new URL(url).origin);
    expect(text).not.toMatch(/evil|6666|9999|https/);
  }

  it('invitation, support sign-in and timesheet reminder mail, checkout url and redirectUrl, under hostile Host and X-Forwarded-*', async () => {
    const ws = await h.workspace();
    const options = { host: `${ws.host}:9999`, headers: HOSTILE };
    const admin = as(h, ws);

    expect((await admin.post('/api/users', { email: 'invitee@example.com', name: 'Invitee' }, options)).status).toBe(200);
    const impersonation = await make.request(h, ws, { kind: 'impersonation', reason: 'links' });
    expect((await admin.put(`/api/requests/${impersonation.id}`, { status: 'RESOLVED' }, options)).status).toBe(200);
    expect((await admin.post('/api/timesheets/reminder', { reason: 'links' }, options)).status).toBe(200);
    const messages = await listMessages(h.app.db, { organizationId: ws.organizationId });
    expect(messages.map((m) => m.kind).sort()).toEqual(['invitation', 'supportSignIn', 'timesheetReminder', 'timesheetReminder']);
    for (const message of messages) expectFromPublicUrl(message.body, ws.domain);

    const checkout = await admin.post('/api/checkout', { product: 3, quantity: 2 }, options);
    expect(checkout.status).toBe(200);
    expect(checkout.body.url).toBe(`${PUBLIC_URL}/billing/checkout?workspace=${ws.domain}&product=3&quantity=2`);

    const doc = await h.call('GET', '/api/openapi.json', options);
    expect(doc.body.servers[0].url).toBe(`http://{workspace}.${BASE_DOMAIN}:3000/api`);

    const deleted = await admin.delete('/api/organization', undefined, options);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ domain: ws.domain, redirectUrl: `${PUBLIC_URL}/` });
  });
});
