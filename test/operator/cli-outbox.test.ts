import { Writable } from 'node:stream';
import { beforeAll, describe, expect, it } from 'vitest';
import { BASE_DOMAIN } from '../support/harness.js';
import { eachStore, runCli, sharedDatabaseUrl } from '../support/processes.js';
import { buildApp, createWorkspace, loadConfig } from '../support/src.js';

/** `timetrack outbox list [--domain D] [--to EMAIL]` (docs/rules.md §1), run as a process on a database the app wrote. */
for (const store of eachStore) {
  describe(`timetrack outbox list [${store.name}]`, () => {
    const url = sharedDatabaseUrl(store);
    const domain = `outbox${process.pid}x${Date.now().toString(36)}`;
    const otherDomain = `${domain}b`;
    const invited: { id: string; email: string }[] = [];
    /** Invited to the other workspace, then asks for their workspaces: a message of no workspace. */
    const finder = `finder-${domain}@example.com`;

    beforeAll(async () => {
      const config = { ...loadConfig({}), databaseUrl: url, baseDomain: BASE_DOMAIN, publicUrl: `http://${BASE_DOMAIN}:3000` };
      const app = await buildApp({ config, logStream: new Writable({ write: (_c, _e, done) => done() }) });
      try {
        const ws = await createWorkspace(app.db, { domain, name: 'Outbox Co', adminEmail: 'boss@example.com', adminName: 'Boss' });
        const other = await createWorkspace(app.db, { domain: otherDomain, name: 'Other Co', adminEmail: 'other@example.com' });
        const invite = async (host: string, token: string, email: string) => {
          const res = await app.inject({
            method: 'POST',
            url: '/api/users',
            headers: { host: `${host}.${BASE_DOMAIN}`, authorization: `Bearer ${token}`, 'content-type': 'application/json' },
            payload: JSON.stringify({ email }),
          });
          expect(res.statusCode).toBe(200);
          return res.json().id as string;
        };
        for (const email of ['first@example.com', 'second@example.com']) {
          invited.push({ id: await invite(domain, ws.apiKey, email), email });
        }
        await invite(otherDomain, other.apiKey, 'elsewhere@example.com');
        await invite(otherDomain, other.apiKey, finder);
        const found = await app.inject({
          method: 'POST',
          url: '/api/auth/find-workspaces',
          headers: { host: BASE_DOMAIN, 'content-type': 'application/json' },
          payload: JSON.stringify({ email: finder }),
        });
        expect(found.statusCode).toBe(200);
      } finally {
        await app.close();
      }
    });

    it('prints the workspace\'s messages as JSON lines in creation order, with exactly the documented fields', { timeout: 120_000 }, async () => {
      const result = await runCli(['outbox', 'list', '--domain', domain], { DATABASE_URL: url });
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      const lines = result.stdout.trimEnd().split('\n');
      expect(lines).toHaveLength(2);
      const messages = lines.map((line) => JSON.parse(line));
      messages.forEach((message, i) => {
        expect(Object.keys(message)).toEqual(['id', 'to', 'kind', 'subject', 'body', 'createdAt', 'sentAt']);
        expect(message).toEqual({
          id: expect.any(String),
          to: invited[i].email,
          kind: 'invitation',
          subject: 'Boss invited you to Outbox Co on timetrack',
          body: expect.stringContaining(`http://${domain}.${BASE_DOMAIN}:3000/`),
          createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
          sentAt: null,
        });
      });
      expect(messages[0].createdAt <= messages[1].createdAt).toBe(true);
    });

    it('the domain is matched case-insensitively', { timeout: 120_000 }, async () => {
      const result = await runCli(['outbox', 'list', '--domain', otherDomain.toUpperCase()], { DATABASE_URL: url });
      expect(result.code).toBe(0);
      expect(result.stdout.trimEnd().split('\n').map((line) => JSON.parse(line).to)).toEqual(['elsewhere@example.com', finder]);
    });

    it('without --domain every message is listed, a workspace list (which belongs to no workspace) too, oldest first', { timeout: 120_000 }, async () => {
      const result = await runCli(['outbox', 'list'], { DATABASE_URL: url });
      expect([result.code, result.stderr]).toEqual([0, '']);
      const messages = result.stdout.trimEnd().split('\n').map((line) => JSON.parse(line));
      const ours = messages.filter((m) => [...invited.map((i) => i.email), 'elsewhere@example.com', finder].includes(m.to));
      expect(ours.map((m) => [m.to, m.kind])).toEqual([
        ...invited.map((i) => [i.email, 'invitation']),
        ['elsewhere@example.com', 'invitation'],
        [finder, 'invitation'],
        [finder, 'workspaceList'],
      ]);
      expect(Object.keys(ours[4])).toEqual(['id', 'to', 'kind', 'subject', 'body', 'createdAt', 'sentAt']);
      expect(messages.map((m) => m.createdAt)).toEqual(messages.map((m) => m.createdAt).sort());
    });

    it('--to lists the messages to one address, in any case, with or without --domain', { timeout: 120_000 }, async () => {
      const all = await runCli(['outbox', 'list', '--to', finder.toUpperCase()], { DATABASE_URL: url });
      expect(all.code).toBe(0);
      const mailed = all.stdout.trimEnd().split('\n').map((line) => JSON.parse(line));
      expect(mailed.map((m) => m.kind)).toEqual(['invitation', 'workspaceList']);
      expect(mailed[1].body).toContain(`http://${otherDomain}.${BASE_DOMAIN}:3000/`);
      const inWorkspace = await runCli(['outbox', 'list', '--domain', otherDomain, '--to', finder], { DATABASE_URL: url });
      expect(inWorkspace.stdout.trimEnd().split('\n').map((line) => JSON.parse(line).kind)).toEqual(['invitation']);
      const nobody = await runCli(['outbox', 'list', '--to', `nobody-${domain}@example.com`], { DATABASE_URL: url });
      expect([nobody.code, nobody.stdout]).toEqual([0, '']);
    });

    it('an unknown domain is a message on stderr and exit 1, with nothing on stdout', { timeout: 120_000 }, async () => {
      const result = await runCli(['outbox', 'list', '--domain', 'nosuchworkspace'], { DATABASE_URL: url });
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain('no workspace "nosuchworkspace"');
    });
  });
}
