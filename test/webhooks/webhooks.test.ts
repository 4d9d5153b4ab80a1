import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { as, describeEachStore, ok, type Harness, type TestWorkspace } from '../support/harness.js';
import { deliverWebhooks as deliverNow, pruneDeliveries, listMessages, loadConfig, newId, recordChange, verifyWebhookSignature, type ChangeType } from '../support/src.js';
import { startReceiver, type Receiver } from './receiver.js';

/** Tests deliver to a receiver on this machine: loopback and http:// allowed, and a short timeout. */
const LOCAL = { webhooks: { ...loadConfig({}).webhooks, allowPrivate: true, timeoutMs: 1_000, leaseMs: 5_000 } };

const at = (base: Date, ms: number) => new Date(base.getTime() + ms);

/** Webhooks made by the running test, deleted after it so no test sees another's deliveries. */
const made: Array<[TestWorkspace, string]> = [];

async function createHook(h: Harness, ws: TestWorkspace, body: Record<string, unknown>) {
  const created = await ok(as(h, ws).post('/api/webhooks', { events: ['*'], ...body }));
  made.push([ws, created.id]);
  return created;
}

/** Tests never ask the real DNS: names resolve only through this table. */
const NAMES: Record<string, string> = {};
const testResolver = async (hostname: string) => {
  const address = NAMES[hostname];
  if (!address) throw new Error(`getaddrinfo ENOTFOUND ${hostname}`);
  return [{ address, family: address.includes(':') ? 6 : 4 }];
};
const deliverWebhooks = (h: Harness, options: { now?: Date } = {}) => deliverNow(h.app, { resolver: testResolver, ...options });

/** Deliveries of the webhook, newest first. */
const deliveriesOf = (h: Harness, ws: TestWorkspace, id: string) => ok(as(h, ws).get(`/api/webhooks/${id}/deliveries`));

/** A change of this type recorded in the workspace's change feed, as an area records it in the transaction of a change. */
const change = (ws: TestWorkspace, type: string, data: object = { id: newId() }) => ({ organizationId: ws.organizationId, type: type as ChangeType, actorId: ws.admin.userId, data });

/** Records one event in the change feed, which the webhooks follow. */
async function emit(h: Harness, ws: TestWorkspace, type: string, data?: object) {
  return h.app.db.transaction().execute((trx) => recordChange(trx, change(ws, type, data)));
}

/** Delivers everything due at `now`, one pass after another, until a pass finds nothing. */
async function drain(h: Harness, now = new Date()) {
  for (let i = 0; i < 50; i++) {
    const pass = await deliverWebhooks(h, { now });
    if (pass.succeeded + pass.failed === 0) return;
  }
}

describeEachStore(
  'Webhooks',
  (h) => {
    let receiver: Receiver;
    beforeAll(async () => {
      receiver = await startReceiver();
    });
    afterAll(async () => {
      await receiver.close();
    });
    afterEach(async () => {
      for (const [ws, id] of made.splice(0)) await as(h, ws).delete(`/api/webhooks/${id}`);
    });
    const fresh = () => {
      receiver.received.length = 0;
      receiver.answer = (_r, response) => response.writeHead(204).end();
    };

    it('an administrator creates, reads, lists, changes and deletes webhooks; the secret is shown only at creation', async () => {
      fresh();
      const ws = await h.workspace();
      const created = await createHook(h, ws, { url: receiver.url('/a'), events: ['activity.created', 'activity.created', 'timer.started'], description: ' Payroll ' });
      expect(created).toEqual({
        id: expect.any(String),
        url: receiver.url('/a'),
        events: ['activity.created', 'timer.started'],
        enabled: true,
        description: 'Payroll',
        secret: expect.stringMatching(/^whsec_[A-Za-z0-9_-]{43}$/),
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      });
      const { secret, ...record } = created;
      const got = await ok(as(h, ws).get(`/api/webhooks/${created.id}`));
      expect(got).toEqual(record);
      expect(JSON.stringify(got)).not.toContain(secret);
      const all = await ok(as(h, ws).get('/api/webhooks'));
      expect(all).toEqual([record]);
      expect(JSON.stringify(all)).not.toContain(secret);

      const changed = await ok(as(h, ws).put(`/api/webhooks/${created.id}`, { events: ['*', 'project.archived'], enabled: false, description: null }));
      expect(changed).toEqual({ ...record, events: ['*'], enabled: false, description: undefined, updatedAt: expect.any(String) });
      expect(changed).not.toHaveProperty('description');
      expect(await ok(as(h, ws).delete(`/api/webhooks/${created.id}`))).toEqual({});
      expect((await as(h, ws).get(`/api/webhooks/${created.id}`)).status).toBe(404);
      expect((await as(h, ws).get(`/api/webhooks/${created.id}/deliveries`)).status).toBe(404);
      expect(await ok(as(h, ws).get('/api/webhooks'))).toEqual([]);
    });

    it('webhooks are for administrators only, and another workspace\'s webhook is 404', async () => {
      const ws = await h.workspace();
      const other = await h.workspace();
      const user = await h.user(ws);
      const hook = await createHook(h, ws, { url: receiver.url() });
      expect((await as(h, ws, user).get('/api/webhooks')).status).toBe(403);
      expect((await as(h, ws, user).post('/api/webhooks', { url: receiver.url(), events: ['*'] })).status).toBe(403);
      expect((await as(h, other).get(`/api/webhooks/${hook.id}`)).status).toBe(404);
      expect((await as(h, other).post(`/api/webhooks/${hook.id}/ping`)).status).toBe(404);
      expect((await as(h, other).get(`/api/webhooks/${hook.id}/deliveries`)).status).toBe(404);
    });

    it('a URL that is not absolute, carries credentials, or an event type out of form is 422 with a pointer, and nothing is stored', async () => {
      const ws = await h.workspace();
      const cases: Array<[unknown, string]> = [
        [{ url: 'not a url', events: ['*'] }, '/body/url'],
        [{ url: 'ftp://hooks.example.com/', events: ['*'] }, '/body/url'],
        [{ url: 'https://user:pw@hooks.example.com/', events: ['*'] }, '/body/url'],
        [{ url: 'https://hooks.example.com/', events: [] }, '/body/events'],
        [{ url: 'https://hooks.example.com/', events: ['Activity Created'] }, '/body/events/0'],
        [{ events: ['*'] }, '/body/url'],
      ];
      for (const [body, pointer] of cases) {
        const res = await as(h, ws).post('/api/webhooks', body);
        expect(res.status, JSON.stringify(body)).toBe(422);
        expect(res.body.errors[0].pointer).toBe(pointer);
      }
      expect(await ok(as(h, ws).get('/api/webhooks'))).toEqual([]);
      const hook = await createHook(h, ws, { url: 'https://hooks.example.com/x' });
      const res = await as(h, ws).put(`/api/webhooks/${hook.id}`, { url: 'https://10.0.0.1/' });
      expect(res.status).toBe(422);
      expect(res.body.errors[0]).toEqual({ pointer: '/body/url', message: 'must reach a public address: 10.0.0.1 is a private address' });
      expect((await ok(as(h, ws).get(`/api/webhooks/${hook.id}`))).url).toBe('https://hooks.example.com/x');
    });

    it('creation queues a ping, delivered signed with the secret; the example verifier accepts it and rejects a stale timestamp or another secret', async () => {
      fresh();
      const ws = await h.workspace();
      const hook = await createHook(h, ws, { url: receiver.url('/ping') });
      const now = new Date();
      expect(await deliverWebhooks(h, { now })).toEqual({ succeeded: 1, failed: 0, gaveUp: 0 });
      expect(receiver.received).toHaveLength(1);
      const [ping] = receiver.received;
      const envelope = JSON.parse(ping.body);
      expect(envelope).toEqual({
        id: ping.eventId,
        type: 'ping',
        createdAt: expect.any(String),
        workspace: { id: ws.organizationId, domain: ws.domain },
        actorId: ws.admin.userId,
        data: { webhookId: hook.id },
      });
      expect(ping.path).toBe('/ping');
      expect(ping.headers['content-type']).toBe('application/json');
      expect(ping.headers['timetrack-event-type']).toBe('ping');
      const signature = String(ping.headers['timetrack-signature']);
      expect(signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
      expect(signature.startsWith(`t=${Math.floor(now.getTime() / 1000)},`)).toBe(true);
      expect(verifyWebhookSignature(ping.body, signature, hook.secret, { now })).toEqual({ ok: true, timestamp: Math.floor(now.getTime() / 1000) });
      expect(verifyWebhookSignature(ping.body, signature, hook.secret, { now: at(now, 301_000) })).toEqual({ ok: false, reason: 'timestamp outside the tolerance' });
      expect(verifyWebhookSignature(ping.body, signature, 'whsec_other', { now })).toEqual({ ok: false, reason: 'no signature matches' });
      expect(verifyWebhookSignature(ping.body + ' ', signature, hook.secret, { now })).toEqual({ ok: false, reason: 'no signature matches' });

      const [delivery] = await deliveriesOf(h, ws, hook.id);
      expect(delivery).toEqual({
        id: String(ping.headers['timetrack-delivery-id']),
        eventId: ping.eventId,
        eventType: 'ping',
        status: 'succeeded',
        createdAt: expect.any(String),
        nextAttemptAt: null,
        finishedAt: now.toISOString(),
        attempts: [{ at: now.toISOString(), statusCode: 204, durationMs: expect.any(Number), error: null }],
      });
      // On demand too:
      const queued = await ok(as(h, ws).post(`/api/webhooks/${hook.id}/ping`));
      expect(queued).toMatchObject({ eventType: 'ping', status: 'pending', attempts: [], finishedAt: null });
      await drain(h);
      expect(receiver.received.map((r) => r.eventId)).toEqual([ping.eventId, queued.eventId]);
    });

    it('after a rotation deliveries are signed with the new secret and, for 24 hours, the former one; the new secret is shown once', async () => {
      fresh();
      const ws = await h.workspace();
      const hook = await createHook(h, ws, { url: receiver.url() });
      const rotated = await ok(as(h, ws).post(`/api/webhooks/${hook.id}/rotate-secret`));
      expect(rotated.secret).toMatch(/^whsec_/);
      expect(rotated.secret).not.toBe(hook.secret);
      expect(Date.parse(rotated.previousSecretExpiresAt) - Date.now()).toBeGreaterThan(23.9 * 3600_000);
      expect(JSON.stringify(await ok(as(h, ws).get(`/api/webhooks/${hook.id}`)))).not.toContain(rotated.secret);
      const now = new Date();
      await drain(h, now);
      const [ping] = receiver.received;
      const signature = String(ping.headers['timetrack-signature']);
      expect(signature).toMatch(/^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
      expect(verifyWebhookSignature(ping.body, signature, rotated.secret, { now }).ok).toBe(true);
      expect(verifyWebhookSignature(ping.body, signature, hook.secret, { now }).ok).toBe(true);
      // After the grace period only the new secret signs.
      const later = at(now, 24 * 3600_000 + 1000);
      await ok(as(h, ws).post(`/api/webhooks/${hook.id}/ping`));
      await drain(h, later);
      const second = receiver.received[1];
      const laterSignature = String(second.headers['timetrack-signature']);
      expect(laterSignature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
      expect(verifyWebhookSignature(second.body, laterSignature, rotated.secret, { now: later }).ok).toBe(true);
      expect(verifyWebhookSignature(second.body, laterSignature, hook.secret, { now: later }).ok).toBe(false);
    });

    it('a receiver that fails 3 times is retried with a growing backoff, then succeeds; every attempt carries the same event and body', async () => {
      fresh();
      const ws = await h.workspace();
      const hook = await createHook(h, ws, { url: receiver.url() });
      let failures = 3;
      receiver.answer = (_r, response) => response.writeHead(failures-- > 0 ? 503 : 200).end('ok');
      let now = new Date();
      const gaps: number[] = [];
      for (let attempt = 1; attempt <= 3; attempt++) {
        expect(await deliverWebhooks(h, { now })).toEqual({ succeeded: 0, failed: 1, gaveUp: 0 });
        const [delivery] = await deliveriesOf(h, ws, hook.id);
        expect(delivery.status).toBe('pending');
        const next = new Date(delivery.nextAttemptAt);
        gaps.push(next.getTime() - now.getTime());
        // Not due before its time: a pass just before it delivers nothing.
        expect(await deliverWebhooks(h, { now: at(next, -1) })).toEqual({ succeeded: 0, failed: 0, gaveUp: 0 });
        now = next;
      }
      expect(await deliverWebhooks(h, { now })).toEqual({ succeeded: 1, failed: 0, gaveUp: 0 });
      expect(gaps[0]).toBeGreaterThanOrEqual(5_000);
      expect(gaps[0]).toBeLessThanOrEqual(10_000);
      expect(gaps[1]).toBeGreaterThanOrEqual(gaps[0]);
      expect(gaps[2]).toBeGreaterThanOrEqual(gaps[1]);
      expect(gaps[2]).toBeGreaterThanOrEqual(20_000);
      const [delivery] = await deliveriesOf(h, ws, hook.id);
      expect(delivery.status).toBe('succeeded');
      expect(delivery.attempts.map((a: any) => [a.statusCode, a.error])).toEqual([
        [503, 'answered 503'],
        [503, 'answered 503'],
        [503, 'answered 503'],
        [200, null],
      ]);
      expect(new Set(receiver.received.map((r) => r.eventId)).size).toBe(1);
      expect(new Set(receiver.received.map((r) => r.body)).size).toBe(1);
    });

    it('a delivery still failing 24 hours after its first attempt gives up: the webhook is disabled and every administrator mailed', async () => {
      fresh();
      const ws = await h.workspace();
      const second = await h.user(ws, { role: 'Administrator' });
      const hook = await createHook(h, ws, { url: receiver.url() });
      receiver.answer = (_r, response) => response.writeHead(500).end();
      const start = new Date();
      await deliverWebhooks(h, { now: start });
      expect(await deliverWebhooks(h, { now: at(start, 23 * 3600_000) })).toEqual({ succeeded: 0, failed: 1, gaveUp: 0 });
      expect((await ok(as(h, ws).get(`/api/webhooks/${hook.id}`))).enabled).toBe(true);
      expect(await listMessages(h.app.db, { organizationId: ws.organizationId })).toEqual([]);
      expect(await deliverWebhooks(h, { now: at(start, 24 * 3600_000) })).toEqual({ succeeded: 0, failed: 1, gaveUp: 1 });
      const disabled = await ok(as(h, ws).get(`/api/webhooks/${hook.id}`));
      expect(disabled.enabled).toBe(false);
      expect(disabled.disabledReason).toContain('answered 500');
      const [delivery] = await deliveriesOf(h, ws, hook.id);
      expect(delivery).toMatchObject({ status: 'failed', nextAttemptAt: null });
      expect(delivery.attempts).toHaveLength(3);
      const mail = await listMessages(h.app.db, { organizationId: ws.organizationId });
      expect(mail.map((m) => [m.kind, m.to]).sort()).toEqual([
        ['webhookDisabled', ws.admin.email],
        ['webhookDisabled', second.email],
      ]);
      expect(mail[0].body).toContain(receiver.url());
      // Disabled: nothing more is tried, even when due; enabling it again resumes and clears the reason.
      await ok(as(h, ws).post(`/api/webhooks/${hook.id}/ping`));
      expect(await deliverWebhooks(h, { now: at(start, 25 * 3600_000) })).toEqual({ succeeded: 0, failed: 0, gaveUp: 0 });
      receiver.answer = (_r, response) => response.writeHead(200).end();
      const enabled = await ok(as(h, ws).put(`/api/webhooks/${hook.id}`, { enabled: true }));
      expect(enabled.enabled).toBe(true);
      expect(enabled).not.toHaveProperty('disabledReason');
      expect(await deliverWebhooks(h, { now: at(start, 25 * 3600_000) })).toEqual({ succeeded: 1, failed: 0, gaveUp: 0 });
    });

    it('redeliver queues the same event again (same event id and body) as a new delivery', async () => {
      fresh();
      const ws = await h.workspace();
      const hook = await createHook(h, ws, { url: receiver.url() });
      await drain(h);
      const [first] = await deliveriesOf(h, ws, hook.id);
      const again = await ok(as(h, ws).post(`/api/webhooks/${hook.id}/deliveries/${first.id}/redeliver`));
      expect(again).toMatchObject({ eventId: first.eventId, eventType: 'ping', status: 'pending', attempts: [] });
      expect(again.id).not.toBe(first.id);
      await drain(h);
      expect(receiver.received.map((r) => r.eventId)).toEqual([first.eventId, first.eventId]);
      expect(receiver.received[1].body).toBe(receiver.received[0].body);
      const listed = await deliveriesOf(h, ws, hook.id);
      expect(listed.map((d: any) => [d.id, d.status])).toEqual([
        [again.id, 'succeeded'],
        [first.id, 'succeeded'],
      ]);
      expect((await as(h, ws).post(`/api/webhooks/${hook.id}/deliveries/${newId()}/redeliver`)).status).toBe(404);
    });

    it('events go only to webhooks that take their type, in order per webhook: the next waits while one is retried', async () => {
      fresh();
      const ws = await h.workspace();
      const hook = await createHook(h, ws, { url: receiver.url('/all') });
      const narrow = await createHook(h, ws, { url: receiver.url('/narrow'), events: ['timer.started'] });
      await createHook(h, ws, { url: receiver.url('/off'), enabled: false });
      await drain(h); // the pings
      receiver.received.length = 0;
      const first = await emit(h, ws, 'activity.created');
      const second = await emit(h, ws, 'timer.started');
      const third = await emit(h, ws, 'activity.deleted');
      const now = new Date();
      let failFirst = true;
      receiver.answer = (received, response) => {
        const failing = received.eventId === first.id && failFirst;
        failFirst &&= !failing;
        response.writeHead(failing ? 500 : 200).end();
      };
      await drain(h, now);
      // /all: the first failed; the second and third wait behind it. /narrow got only its type.
      expect(receiver.received.map((r) => [r.path, r.eventId]).sort()).toEqual([
        ['/all', first.id],
        ['/narrow', second.id],
      ]);
      await drain(h, at(now, 60_000));
      const all = receiver.received.filter((r) => r.path === '/all').map((r) => r.eventId);
      expect(all).toEqual([first.id, first.id, second.id, third.id]);
      expect(receiver.received.filter((r) => r.path === '/narrow').map((r) => r.eventId)).toEqual([second.id]);
      expect(receiver.received.some((r) => r.path === '/off')).toBe(false);
      const body = JSON.parse(receiver.received.find((r) => r.eventId === third.id)!.body);
      expect(body).toEqual({
        id: third.id,
        type: 'activity.deleted',
        createdAt: third.createdAt,
        workspace: { id: ws.organizationId, domain: ws.domain },
        actorId: ws.admin.userId,
        data: third.data,
      });
      expect(narrow.events).toEqual(['timer.started']);
      expect(hook.events).toEqual(['*']);
    });

    it('one pass sends a webhook\'s queued events one after another in order, on one connection; one failing midway holds those after it, untried, for its retry', async () => {
      fresh();
      const ws = await h.workspace();
      const hook = await createHook(h, ws, { url: receiver.url('/run') });
      await drain(h); // the ping
      receiver.received.length = 0;
      const events: Array<{ id: string }> = [];
      for (let i = 0; i < 5; i++) events.push(await emit(h, ws, 'activity.created'));
      let failed = false;
      receiver.answer = (received, response) => {
        const failing = received.eventId === events[2]!.id && !failed;
        failed ||= failing;
        response.writeHead(failing ? 503 : 204).end();
      };
      const now = new Date();
      expect(await deliverWebhooks(h, { now })).toEqual({ succeeded: 2, failed: 1, gaveUp: 0 });
      expect(receiver.received.map((r) => r.eventId)).toEqual(events.slice(0, 3).map((e) => e.id));
      const byEvent = new Map(Object.values(await deliveriesOf(h, ws, hook.id)).map((d: any) => [d.eventId, d]));
      expect(events.map((e) => [byEvent.get(e.id).status, byEvent.get(e.id).attempts.length])).toEqual([
        ['succeeded', 1],
        ['succeeded', 1],
        ['pending', 1],
        ['pending', 0],
        ['pending', 0],
      ]);
      // Nothing is sent before the retry is due; then the rest follow in one pass, in order.
      expect(await deliverWebhooks(h, { now })).toEqual({ succeeded: 0, failed: 0, gaveUp: 0 });
      expect(await deliverWebhooks(h, { now: at(now, 60_000) })).toEqual({ succeeded: 3, failed: 0, gaveUp: 0 });
      expect(receiver.received.map((r) => r.eventId)).toEqual([...events.slice(0, 3), ...events.slice(2)].map((e) => e.id));
      // A run's deliveries share one connection, which ends with the run: the next run connects (and is checked) anew.
      const [first, second] = [receiver.received.slice(0, 3), receiver.received.slice(3)].map((run) => new Set(run.map((r) => r.connection)));
      expect([first!.size, second!.size]).toEqual([1, 1]);
      expect([...first!][0]).not.toBe([...second!][0]);
    });

    it('a receiver that closes the run\'s open connection as the next delivery goes out on it gets that delivery again on a new connection', async () => {
      fresh();
      const ws = await h.workspace();
      await createHook(h, ws, { url: receiver.url('/closing') });
      await drain(h); // the ping
      receiver.received.length = 0;
      const events: Array<{ id: string }> = [];
      for (let i = 0; i < 3; i++) events.push(await emit(h, ws, 'activity.created'));
      // Every connection serves one request; the next one sent on it finds it closed without an answer.
      const served = new Set<number>();
      receiver.answer = (received, response) => {
        if (served.has(received.connection)) return response.socket!.destroy();
        served.add(received.connection);
        response.writeHead(204).end();
      };
      expect(await deliverWebhooks(h)).toEqual({ succeeded: 3, failed: 0, gaveUp: 0 });
      const answered = receiver.received.filter((r, i, all) => all.findIndex((x) => x.connection === r.connection) === i);
      expect(answered.map((r) => r.eventId)).toEqual(events.map((e) => e.id));
    });

    it('a webhook gets events in the order their writes committed: a write that began first and committed last is delivered last', async () => {
      fresh();
      const ws = await h.workspace();
      await createHook(h, ws, { url: receiver.url('/commit-order') });
      await drain(h); // the ping
      receiver.received.length = 0;
      const committed: Array<{ id: string; type: string }> = [];
      let enqueued!: () => void;
      let release!: () => void;
      const written = new Promise<void>((resolve) => (enqueued = resolve));
      const held = new Promise<void>((resolve) => (release = resolve));
      const first = h.app.db
        .transaction()
        .execute(async (trx) => {
          const event = await recordChange(trx, change(ws, 'activity.created'));
          enqueued();
          await held;
          return event;
        })
        .then((event) => committed.push(event));
      await written;
      const second = h.app.db
        .transaction()
        .execute((trx) => recordChange(trx, change(ws, 'activity.updated')))
        .then((event) => committed.push(event));
      // PostgreSQL commits the second write while the first is open; SQLite has one writer, so the second waits.
      await Promise.race([second, new Promise((resolve) => setTimeout(resolve, 500))]);
      release();
      await Promise.all([first, second]);
      // The write that began first committed last on PostgreSQL.
      if (h.store === 'postgres') expect(committed.map((event) => event.type)).toEqual(['activity.updated', 'activity.created']);
      await drain(h);
      expect(receiver.received.map((r) => r.eventId)).toEqual(committed.map((event) => event.id));
    });

    it('finished deliveries are kept 30 days after they finish, then pruned; pending ones stay', async () => {
      fresh();
      const ws = await h.workspace();
      const hook = await createHook(h, ws, { url: receiver.url() });
      await drain(h);
      await ok(as(h, ws).post(`/api/webhooks/${hook.id}/ping`));
      const finished = Date.now();
      await pruneDeliveries(h.app, at(new Date(finished), 29 * 24 * 3600_000));
      expect(await deliveriesOf(h, ws, hook.id)).toHaveLength(2);
      await pruneDeliveries(h.app, at(new Date(finished), 31 * 24 * 3600_000));
      expect((await deliveriesOf(h, ws, hook.id)).map((d: any) => d.status)).toEqual(['pending']);
    });

    it('a real change (POST /activities) is delivered to the webhooks taking its type, with the record as data, and not to the others', async () => {
      fresh();
      const ws = await h.workspace();
      await createHook(h, ws, { url: receiver.url('/activities'), events: ['activity.created'] });
      await createHook(h, ws, { url: receiver.url('/projects'), events: ['project.created', 'revenue_rate.updated'] });
      await drain(h); // the pings
      receiver.received.length = 0;
      const activity = await ok(as(h, ws).post('/api/activities', { name: 'Deep work', startedAt: '2026-03-02T09:00:00Z', endedAt: '2026-03-02T10:00:00Z' }));
      await drain(h);
      expect(receiver.received.map((r) => [r.path, r.headers['timetrack-event-type']])).toEqual([['/activities', 'activity.created']]);
      const envelope = JSON.parse(receiver.received[0].body);
      expect(envelope).toMatchObject({ type: 'activity.created', workspace: { id: ws.organizationId, domain: ws.domain }, actorId: ws.admin.userId });
      expect(envelope.data).toEqual(activity);
      expect(envelope.id).toBe(receiver.received[0].eventId);
      // The same event id as the change feed's.
      const feed = await ok(as(h, ws).get('/api/changes'));
      expect(feed.events.map((e: any) => e.id)).toContain(envelope.id);
    });

    it('a webhook takes the changes committed after its creation, and after it is enabled again, never those made while it was off', async () => {
      fresh();
      const ws = await h.workspace();
      const before = await emit(h, ws, 'project.created');
      const hook = await createHook(h, ws, { url: receiver.url('/follows') });
      const taken = await emit(h, ws, 'project.updated');
      await drain(h);
      expect(receiver.received.map((r) => r.headers['timetrack-event-type'])).toEqual(['ping', 'project.updated']);
      expect(receiver.received.map((r) => r.eventId)).not.toContain(before.id);
      expect(receiver.received[1].eventId).toBe(taken.id);
      receiver.received.length = 0;
      await ok(as(h, ws).put(`/api/webhooks/${hook.id}`, { enabled: false }));
      await emit(h, ws, 'project.archived');
      await drain(h);
      expect(receiver.received).toEqual([]);
      await ok(as(h, ws).put(`/api/webhooks/${hook.id}`, { enabled: true }));
      const after = await emit(h, ws, 'project.deleted');
      await drain(h);
      expect(receiver.received.map((r) => r.eventId)).toEqual([after.id]);
      // A change of its settings that leaves it enabled keeps its place in the feed.
      receiver.received.length = 0;
      const meanwhile = await emit(h, ws, 'project.created');
      await ok(as(h, ws).put(`/api/webhooks/${hook.id}`, { enabled: true, description: 'still on' }));
      await drain(h);
      expect(receiver.received.map((r) => r.eventId)).toEqual([meanwhile.id]);
    });

    it('an event type the change feed does not have is 422 at its index', async () => {
      const ws = await h.workspace();
      const res = await as(h, ws).post('/api/webhooks', { url: 'https://hooks.example.com/x', events: ['activity.created', 'activity.exploded'] });
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual([{ pointer: '/body/events/1', message: 'must be `*` or an event type of the change feed' }]);
    });

    it('an event written in a transaction that rolls back is never delivered', async () => {
      fresh();
      const ws = await h.workspace();
      await createHook(h, ws, { url: receiver.url() });
      await drain(h);
      receiver.received.length = 0;
      await expect(
        h.app.db.transaction().execute(async (trx) => {
          await recordChange(trx, change(ws, 'activity.created'));
          throw new Error('the change failed');
        }),
      ).rejects.toThrow('the change failed');
      await drain(h);
      expect(receiver.received).toEqual([]);
    });

    it('redirects are not followed, and an answer too slow times out; both are retried', async () => {
      fresh();
      const ws = await h.workspace();
      const hook = await createHook(h, ws, { url: receiver.url('/moved') });
      receiver.answer = (received, response) => {
        if (received.path === '/moved') response.writeHead(302, { location: receiver.url('/elsewhere') }).end();
        else response.writeHead(200).end();
      };
      const now = new Date();
      await deliverWebhooks(h, { now });
      expect(receiver.received.map((r) => r.path)).toEqual(['/moved']);
      let [delivery] = await deliveriesOf(h, ws, hook.id);
      expect(delivery.attempts[0]).toMatchObject({ statusCode: 302, error: 'answered 302: redirects are not followed' });
      expect(delivery.status).toBe('pending');

      receiver.answer = () => undefined; // never answers
      await deliverWebhooks(h, { now: at(now, 60_000) });
      [delivery] = await deliveriesOf(h, ws, hook.id);
      expect(delivery.attempts[1]).toMatchObject({ statusCode: null, error: 'no answer within 1000 ms' });
      expect(delivery.attempts[1].durationMs).toBeGreaterThanOrEqual(900);
      expect(delivery.status).toBe('pending');
    });
  },
  LOCAL,
);
