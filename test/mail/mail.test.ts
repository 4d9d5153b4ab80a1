import type { FastifyInstance } from 'fastify';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { make } from '../support/factories/index.js';
import { as, BASE_DOMAIN, describeEachStore, type Harness, type TestWorkspace } from '../support/harness.js';
import { buildApp, type Config, deliverPending, enqueueMessage, listMessages, loadConfig } from '../support/src.js';
import { testStores } from '../support/stores.js';

/** The text of a received message: quoted-printable soft breaks and escapes undone. */
function decoded(raw: string): string {
  return raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

describeEachStore('Outbox without SMTP', (h) => {
  it('an invitation writes an invitation message whose link comes from PUBLIC_URL, never from the Host header', async () => {
    const ws = await h.workspace();
    const res = await h.call('POST', '/api/users', {
      host: `${ws.host}:8443`,
      token: ws.admin.token,
      body: { email: 'Mia@Example.com', name: 'Mia' },
      headers: { 'x-forwarded-host': 'evil.example.net' },
    });
    expect(res.status).toBe(200);
    const messages = await listMessages(h.app.db, { organizationId: ws.organizationId });
    expect(messages).toEqual([
      {
        id: expect.any(String),
        to: 'mia@example.com',
        kind: 'invitation',
        subject: `Admin invited you to Workspace ${ws.domain} on timetrack`,
        body: expect.any(String),
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        sentAt: null,
      },
    ]);
    const body = messages[0].body;
    expect(body).toContain('Hello Mia,');
    expect(body).toContain(`http://${ws.domain}.${BASE_DOMAIN}:3000/`);
    expect(body).not.toContain('8443');
    expect(body).not.toContain('evil');
  });

  it('without SMTP_URL messages stay unsent and each is logged once with kind and recipient, never its body', async () => {
    const ws = await h.workspace();
    await as(h, ws).post('/api/users', { email: 'noah@example.com' });
    await deliverPending(h.app);
    await deliverPending(h.app);
    const [message] = await listMessages(h.app.db, { organizationId: ws.organizationId });
    expect(message.sentAt).toBeNull();
    const lines = h.logs.flatMap((chunk) => chunk.split('\n')).filter((line) => line.includes(message.id));
    expect(lines).toHaveLength(1);
    const entry = JSON.parse(lines[0]);
    expect(entry).toMatchObject({ level: 30, kind: 'invitation', to: 'noah@example.com', messageId: message.id });
    expect(lines[0]).not.toContain(`http://${ws.domain}`);
    expect(lines[0]).not.toContain(ws.admin.token);
  });

  it('a message is written in its cause\'s transaction: when that rolls back, there is no message', async () => {
    const ws = await h.workspace();
    await expect(
      h.app.db.transaction().execute(async (trx) => {
        await enqueueMessage(trx, { organizationId: ws.organizationId, to: 'x@example.com', kind: 'invitation', subject: 'S', body: 'B' });
        throw new Error('the cause failed');
      }),
    ).rejects.toThrow('the cause failed');
    expect(await listMessages(h.app.db, { organizationId: ws.organizationId })).toEqual([]);
  });

  it('a failed invitation (422) writes no message', async () => {
    const ws = await h.workspace();
    expect((await as(h, ws).post('/api/users', { email: 'bad address' })).status).toBe(422);
    expect(await listMessages(h.app.db, { organizationId: ws.organizationId })).toEqual([]);
  });

  it('messages are listed per workspace in creation order', async () => {
    const ws = await h.workspace();
    const other = await h.workspace();
    for (const email of ['o1@example.com', 'o2@example.com', 'o3@example.com']) await as(h, ws).post('/api/users', { email });
    await as(h, other).post('/api/users', { email: 'o4@example.com' });
    expect((await listMessages(h.app.db, { organizationId: ws.organizationId })).map((m) => m.to)).toEqual([
      'o1@example.com',
      'o2@example.com',
      'o3@example.com',
    ]);
  });
});

interface Received {
  from: string;
  to: string[];
  raw: string;
}

/** A real SMTP server from the smtp-server package, on 127.0.0.1 at a random port. */
async function startSmtp() {
  const received: Received[] = [];
  const rcptAttempts: string[] = [];
  const rejectOnce = new Set<string>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(address, _session, callback) {
      rcptAttempts.push(address.address);
      if (rejectOnce.delete(address.address)) {
        return callback(Object.assign(new Error('Mailbox busy, try later'), { responseCode: 450 }));
      }
      callback();
    },
    onData(stream, session, callback) {
      let raw = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => (raw += chunk));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    received,
    rcptAttempts,
    rejectOnce,
    to: (address: string) => received.filter((m) => m.to.includes(address)),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

for (const store of testStores) {
  describe(`Mail delivery over SMTP [${store.name}]`, () => {
    const url = store.freshUrl();
    let smtp: Awaited<ReturnType<typeof startSmtp>>;
    let app: FastifyInstance;
    const h = {} as Harness;

    beforeAll(async () => {
      smtp = await startSmtp();
      const config: Config = {
        ...loadConfig({}),
        databaseUrl: url,
        baseDomain: BASE_DOMAIN,
        publicUrl: `https://${BASE_DOMAIN}`,
        smtpUrl: `smtp://127.0.0.1:${smtp.port}`,
        mailFrom: 'timetrack <no-reply@timetrack.test>',
        logLevel: 'warn',
      };
      app = await buildApp({ config, logStream: new Writable({ write: (_c, _e, done) => done() }) });
      h.app = app;
    });
    afterAll(async () => {
      await app?.close();
      await smtp?.close();
    });

    let counter = 0;
    async function workspace(): Promise<TestWorkspace> {
      const domain = `smtp${process.pid}x${++counter}x${Date.now().toString(36)}`;
      return make.workspace(h, { domain, name: `Mail ${domain}`, adminName: 'Ada' });
    }
    const invite = async (ws: TestWorkspace, email: string) => {
      const res = await app.inject({
        method: 'POST',
        url: '/api/users',
        headers: { host: ws.host, authorization: `Bearer ${ws.admin.token}`, 'content-type': 'application/json' },
        payload: JSON.stringify({ email, name: 'Invited Person' }),
      });
      expect(res.statusCode).toBe(200);
    };

    it('an invitation is delivered over SMTP exactly once, even with several delivery passes at once', async () => {
      const ws = await workspace();
      await invite(ws, 'olga@example.com');
      await Promise.all([deliverPending(app), deliverPending(app), deliverPending(app)]);
      await vi.waitFor(() => expect(smtp.to('olga@example.com')).toHaveLength(1));
      const [mail] = smtp.to('olga@example.com');
      expect(mail.from).toBe('no-reply@timetrack.test');
      const text = decoded(mail.raw);
      expect(text).toMatch(/^To: olga@example\.com\r?$/m);
      expect(text).toMatch(/^From: timetrack <no-reply@timetrack\.test>\r?$/m);
      expect(text).toMatch(new RegExp(`^Subject: Ada invited you to Mail ${ws.domain} on timetrack\\r?$`, 'm'));
      expect(text).toContain('Hello Invited Person,');
      expect(text).toContain(`https://${ws.domain}.${BASE_DOMAIN}/`);
      const [message] = await listMessages(app.db, { organizationId: ws.organizationId });
      expect(message.sentAt).toEqual(expect.stringMatching(/Z$/));
      // Later passes never send it again.
      await deliverPending(app);
      await deliverPending(app, { now: new Date(Date.now() + 24 * 3_600_000) });
      expect(smtp.to('olga@example.com')).toHaveLength(1);
      expect(smtp.rcptAttempts.filter((a) => a === 'olga@example.com')).toHaveLength(1);
    });

    it('a failed delivery stays in the outbox and is retried after a backoff, then sent once', async () => {
      const ws = await workspace();
      smtp.rejectOnce.add('pete@example.com');
      await invite(ws, 'pete@example.com');
      await deliverPending(app);
      expect(smtp.rcptAttempts.filter((a) => a === 'pete@example.com')).toHaveLength(1);
      expect(smtp.to('pete@example.com')).toHaveLength(0);
      const failed = await app.db.selectFrom('outbox').selectAll().where('organization_id', '=', ws.organizationId).executeTakeFirstOrThrow();
      expect(failed).toMatchObject({ sent_at: null, attempts: 1 });
      expect(failed.last_error).toContain('Mailbox busy');
      expect(failed.locked_until! > new Date().toISOString()).toBe(true);

      // Within the backoff nothing is tried again.
      await deliverPending(app);
      expect(smtp.rcptAttempts.filter((a) => a === 'pete@example.com')).toHaveLength(1);

      // After it, the message goes out, once.
      await deliverPending(app, { now: new Date(Date.now() + 2 * 60_000) });
      expect(smtp.to('pete@example.com')).toHaveLength(1);
      const [message] = await listMessages(app.db, { organizationId: ws.organizationId });
      expect(message.sentAt).not.toBeNull();
      await deliverPending(app, { now: new Date(Date.now() + 60 * 60_000) });
      expect(smtp.to('pete@example.com')).toHaveLength(1);
    });

    it('the worker started with the app delivers on its own', { timeout: 20_000 }, async () => {
      const ws = await workspace();
      await invite(ws, 'quinn@example.com');
      // The SMTP server has the message a moment before the worker records it as sent: wait for both.
      await vi.waitFor(
        async () => {
          expect(smtp.to('quinn@example.com')).toHaveLength(1);
          const [message] = await listMessages(app.db, { organizationId: ws.organizationId });
          expect(message.sentAt).not.toBeNull();
        },
        { timeout: 15_000, interval: 200 },
      );
    });
  });
}
