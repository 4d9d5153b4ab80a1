import type { LookupAddress } from 'node:dns';
import { expect, it } from 'vitest';
import { as, describeEachStore, ok, type Harness, type TestWorkspace } from '../support/harness.js';
import { deliverWebhooks, loadConfig } from '../support/src.js';
import { suiteReceiver } from './receiver.js';

/**
 * Where deliveries may go (docs/webhooks.md): only public addresses over https, checked at creation
 * for address literals and at every delivery for the address actually connected to, so a name that
 * DNS turns into an inner address later (rebinding) is refused then. A test resolver plays DNS.
 */

const base = loadConfig({}).webhooks;
let answer: string[] = [];
const resolver = async (): Promise<LookupAddress[]> => answer.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

async function lastAttempt(h: Harness, ws: TestWorkspace, hookId: string) {
  const [delivery] = await ok(as(h, ws).get(`/api/webhooks/${hookId}/deliveries`));
  return delivery.attempts.at(-1);
}

/** Drops every pending delivery of the workspace's webhooks (by deleting them), so each case starts clean. */
async function clear(h: Harness, ws: TestWorkspace) {
  for (const hook of await ok(as(h, ws).get('/api/webhooks'))) await ok(as(h, ws).delete(`/api/webhooks/${hook.id}`));
}

describeEachStore(
  'Webhook addresses without WEBHOOK_ALLOW_PRIVATE',
  (h) => {
    it('a URL naming a non-public address, localhost or http:// is 422 at /body/url', async () => {
      const ws = await h.workspace();
      const refused: Array<[string, string]> = [
        ['https://127.0.0.1/hook', 'must reach a public address: 127.0.0.1 is a loopback address'],
        ['https://localhost:8443/hook', 'must reach a public address: localhost is a loopback address'],
        ['https://api.localhost/hook', 'must reach a public address: api.localhost is a loopback address'],
        ['https://localhost./hook', 'must reach a public address: localhost. is a loopback address'],
        ['https://foo.localhost./hook', 'must reach a public address: foo.localhost. is a loopback address'],
        ['https://foo.localhost../hook', 'must reach a public address: foo.localhost.. is a loopback address'],
        ['https://[::1]/hook', 'must reach a public address: [::1] is a loopback address'],
        ['https://10.1.2.3/hook', 'must reach a public address: 10.1.2.3 is a private address'],
        ['https://192.168.0.10/hook', 'must reach a public address: 192.168.0.10 is a private address'],
        ['https://172.16.5.4/hook', 'must reach a public address: 172.16.5.4 is a private address'],
        ['https://100.64.0.1/hook', 'must reach a public address: 100.64.0.1 is a shared address'],
        ['https://169.254.10.1/hook', 'must reach a public address: 169.254.10.1 is a link-local address'],
        ['https://169.254.169.254/latest/meta-data', 'must reach a public address: 169.254.169.254 is a metadata address'],
        ['https://[fd00:ec2::254]/', 'must reach a public address: [fd00:ec2::254] is a metadata address'],
        ['https://[fc00::1]/', 'must reach a public address: [fc00::1] is a private address'],
        ['https://[fe80::1]/', 'must reach a public address: [fe80::1] is a link-local address'],
        ['https://[::ffff:127.0.0.1]/', 'must reach a public address: [::ffff:7f00:1] is a loopback address'],
        ['https://[::ffff:a9fe:a9fe]/', 'must reach a public address: [::ffff:a9fe:a9fe] is a metadata address'],
        ['https://0.0.0.0/', 'must reach a public address: 0.0.0.0 is a reserved address'],
        ['http://hooks.example.com/', 'must be an https:// URL'],
      ];
      for (const [url, message] of refused) {
        const res = await as(h, ws).post('/api/webhooks', { url, events: ['*'] });
        expect(res.status, url).toBe(422);
        expect(res.body.errors, url).toEqual([{ pointer: '/body/url', message }]);
      }
      expect(await ok(as(h, ws).get('/api/webhooks'))).toEqual([]);
    });

    it('at delivery, a name resolving to a loopback, private, link-local, shared, metadata or IPv4-mapped address is refused without connecting', async () => {
      const ws = await h.workspace();
      const cases: Array<[string[], string]> = [
        [['127.0.0.1'], '127.0.0.1: a loopback address is allowed only with WEBHOOK_ALLOW_PRIVATE=true'],
        [['::1'], '::1: a loopback address is allowed only with WEBHOOK_ALLOW_PRIVATE=true'],
        [['10.0.0.5'], '10.0.0.5: refused: private address'],
        [['169.254.169.254'], '169.254.169.254: refused: metadata address'],
        [['fd00:ec2::254'], 'fd00:ec2::254: refused: metadata address'],
        [['fe80::1'], 'fe80::1: refused: link-local address'],
        [['100.64.3.2'], '100.64.3.2: refused: shared address'],
        [['::ffff:10.0.0.1'], '::ffff:10.0.0.1: refused: private address'],
        [['::ffff:127.0.0.1'], '::ffff:127.0.0.1: a loopback address is allowed only with WEBHOOK_ALLOW_PRIVATE=true'],
        // One bad address among good ones is enough to refuse: the connection could use any of them.
        [['93.184.216.34', '10.9.9.9'], '10.9.9.9: refused: private address'],
      ];
      for (const [addresses, error] of cases) {
        const hook = await ok(as(h, ws).post('/api/webhooks', { url: 'https://hooks.customer.test/in', events: ['*'] }));
        answer = addresses;
        expect(await deliverWebhooks(h.app, { resolver })).toMatchObject({ succeeded: 0, failed: 1 });
        expect(await lastAttempt(h, ws, hook.id), addresses.join()).toMatchObject({ statusCode: null, error });
        await clear(h, ws);
      }
    });
  },
  { webhooks: { ...base, allowPrivate: false } },
);

describeEachStore(
  'Webhook addresses with WEBHOOK_ALLOW_PRIVATE (local receivers)',
  (h) => {
    const receiver = suiteReceiver();

    it('DNS rebinding: the address is checked at every delivery, and the one checked is the one connected to', async () => {
      const ws = await h.workspace();
      receiver().received.length = 0;
      const hook = await ok(as(h, ws).post('/api/webhooks', { url: `http://rebind.localhost:${receiver().port}/in`, events: ['*'] }));
      // First the name resolves to the (loopback) receiver: delivered there, so our resolver chose the address.
      answer = ['127.0.0.1'];
      expect(await deliverWebhooks(h.app, { resolver })).toMatchObject({ succeeded: 1 });
      expect(receiver().received).toHaveLength(1);
      // Then DNS answers an inner address: refused, and nothing reaches anyone.
      for (const [address, error] of [
        ['169.254.169.254', '169.254.169.254: refused: metadata address'],
        ['10.0.0.7', '10.0.0.7: refused: private address'],
        ['::ffff:192.168.1.1', '::ffff:192.168.1.1: refused: private address'],
      ]) {
        await ok(as(h, ws).post(`/api/webhooks/${hook.id}/ping`));
        answer = [address];
        expect(await deliverWebhooks(h.app, { resolver, now: new Date(Date.now() + 3_600_000) })).toMatchObject({ succeeded: 0, failed: 1 });
        expect(await lastAttempt(h, ws, hook.id)).toMatchObject({ statusCode: null, error });
        await clear(h, ws);
        await ok(as(h, ws).post('/api/webhooks', { url: `http://rebind.localhost:${receiver().port}/in`, events: ['*'] }));
        answer = ['127.0.0.1'];
        await deliverWebhooks(h.app, { resolver });
        const [again] = await ok(as(h, ws).get('/api/webhooks'));
        Object.assign(hook, again);
      }
      expect(receiver().received.every((r) => r.path === '/in')).toBe(true);
      await clear(h, ws);
    });

    it('http:// goes to loopback only: a public name or address is 422 at creation, and a name resolving to a public address is refused over http', async () => {
      const ws = await h.workspace();
      for (const url of ['http://plain.customer.test/in', 'http://93.184.216.34/in', 'http://hooks.example.com./in']) {
        const refused = await as(h, ws).post('/api/webhooks', { url, events: ['*'] });
        expect(refused.status, url).toBe(422);
        expect(refused.body.errors[0].pointer, url).toBe('/body/url');
        expect(refused.body.errors[0].message, url).toMatch(/^must be an https:\/\/ URL: http:\/\/ is allowed only to a loopback address/);
      }
      expect(await ok(as(h, ws).get('/api/webhooks'))).toEqual([]);
      const hook = await ok(as(h, ws).post('/api/webhooks', { url: 'http://plain.localhost/in', events: ['*'] }));
      answer = ['93.184.216.34'];
      await deliverWebhooks(h.app, { resolver });
      expect(await lastAttempt(h, ws, hook.id)).toMatchObject({
        statusCode: null,
        error: '93.184.216.34: http:// is allowed only to a loopback address with WEBHOOK_ALLOW_PRIVATE=true',
      });
      // Other inner addresses stay refused at creation, flag or not.
      const res = await as(h, ws).post('/api/webhooks', { url: 'http://10.0.0.1/in', events: ['*'] });
      expect(res.body.errors).toEqual([{ pointer: '/body/url', message: 'must reach a public address: 10.0.0.1 is a private address' }]);
      await clear(h, ws);
    });
  },
  { webhooks: { ...base, allowPrivate: true, timeoutMs: 1_000 } },
);
