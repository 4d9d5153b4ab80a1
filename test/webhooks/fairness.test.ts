import type http from 'node:http';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { as, describeEachStore, ok, type Harness, type TestWorkspace } from '../support/harness.js';
import { loadConfig, slotsPerWorkspace, startWebhookWorker, WEBHOOKS_PER_WORKSPACE } from '../support/src.js';
import { startReceiver, type Receiver } from './receiver.js';

/*
 * One workspace's receivers cannot hold another's deliveries (docs/webhooks.md "Delivery"): the
 * worker's slots are refilled as each run ends, a workspace holds at most its share of them, and a
 * workspace has a bounded number of webhooks (docs/rules.md §6 Webhooks).
 */

const LOCAL = { webhooks: { ...loadConfig({}).webhooks, allowPrivate: true, workerIntervalMs: 50 } };

/** A receiver that never answers: each request stays open until the sender's timeout closes it. */
async function hangingReceiver() {
  const receiver = await startReceiver();
  const requests: http.ServerResponse[] = [];
  const closed = new Set<http.ServerResponse>();
  receiver.answer = (_received, response) => {
    requests.push(response);
    response.on('close', () => closed.add(response));
  };
  return {
    receiver,
    /** Requests that arrived and are still waiting for an answer. */
    hanging: () => requests.length - closed.size,
    /** Requests the sender gave up on (its timeout). */
    timedOut: () => closed.size,
  };
}

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let attempt = 0; !condition(); attempt++) {
    if (attempt === 2_000) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describeEachStore(
  'Webhook fairness',
  (h) => {
    let worker: { stop(): Promise<void> };
    const receivers: Receiver[] = [];
    const made: Array<[TestWorkspace, string]> = [];
    beforeAll(() => {
      worker = startWebhookWorker(h.app);
    });
    afterEach(async () => {
      for (const [ws, id] of made.splice(0)) await as(h, ws).delete(`/api/webhooks/${id}`);
      // Closing a hanging receiver ends the attempts waiting on it.
      for (const receiver of receivers.splice(0)) await receiver.close();
    });
    afterAll(async () => {
      await worker.stop();
    });

    async function createHook(harness: Harness, ws: TestWorkspace, url: string) {
      const created = await ok(as(harness, ws).post('/api/webhooks', { url, events: ['*'] }));
      made.push([ws, created.id]);
      return created;
    }

    it('a receiver that never answers holds its own slot only: another workspace\'s delivery goes out while its attempt still hangs', async () => {
      const [slow, quick] = [await h.workspace(), await h.workspace()];
      const silent = await hangingReceiver();
      const good = await startReceiver();
      receivers.push(silent.receiver, good);
      await createHook(h, slow, silent.receiver.url());
      await until(() => silent.hanging() === 1, 'the ping to the silent receiver');
      await createHook(h, quick, good.url());
      await until(() => good.received.length === 1 || silent.timedOut() > 0, 'the other workspace\'s ping');
      expect(good.received).toHaveLength(1);
      expect([silent.hanging(), silent.timedOut()]).toEqual([1, 0]);
    }, 30_000);

    it('twelve silent receivers of one workspace hold at most its share of the slots: another workspace\'s delivery goes out before their timeouts end', async () => {
      const share = slotsPerWorkspace(LOCAL.webhooks.concurrency);
      const [slow, quick] = [await h.workspace(), await h.workspace()];
      const silent = await hangingReceiver();
      const good = await startReceiver();
      receivers.push(silent.receiver, good);
      for (let i = 0; i < 12; i++) await createHook(h, slow, silent.receiver.url(`/silent/${i}`));
      await until(() => silent.hanging() >= share, 'the pings to the silent receivers');
      // Rounds enough for the worker to take every slot it would give them.
      await new Promise((resolve) => setTimeout(resolve, 300));
      await createHook(h, quick, good.url());
      await until(() => good.received.length === 1 || silent.timedOut() > 0, 'the other workspace\'s ping');
      expect(good.received).toHaveLength(1);
      expect([silent.hanging(), silent.timedOut()]).toEqual([share, 0]);
    }, 30_000);

    it(`a workspace has at most ${WEBHOOKS_PER_WORKSPACE} webhooks: one more is 409 and stores nothing, until one is deleted`, async () => {
      const ws = await h.workspace();
      const good = await startReceiver();
      receivers.push(good);
      for (let i = 0; i < WEBHOOKS_PER_WORKSPACE; i++) await createHook(h, ws, good.url(`/hook/${i}`));
      const over = await as(h, ws).post('/api/webhooks', { url: good.url('/one-too-many'), events: ['*'] });
      expect(over.status).toBe(409);
      expect(over.body).toMatchObject({ status: 409, code: 'conflict' });
      expect(over.body.detail).toContain(`at most ${WEBHOOKS_PER_WORKSPACE} webhooks`);
      const hooks = Object.values(await ok(as(h, ws).get('/api/webhooks'))) as Array<{ id: string; url: string }>;
      expect(hooks).toHaveLength(WEBHOOKS_PER_WORKSPACE);
      expect(hooks.map((hook) => hook.url)).not.toContain(good.url('/one-too-many'));

      // Another workspace is not affected.
      await createHook(h, await h.workspace(), good.url('/elsewhere'));

      const [deletedWs, deletedId] = made.shift()!;
      expect((await as(h, deletedWs).delete(`/api/webhooks/${deletedId}`)).status).toBe(200);
      await createHook(h, ws, good.url('/after-a-deletion'));
      expect((await as(h, ws).post('/api/webhooks', { url: good.url('/one-too-many-again'), events: ['*'] })).status).toBe(409);
    }, 30_000);
  },
  LOCAL,
);
