import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { as, describeEachStore, ok, type TestWorkspace } from '../support/harness.js';
import { heldRequest, listening, untilOthersInFlight } from '../support/listening.js';
import { DELIVERIES_PER_RUN, loadConfig, startWebhookWorker, toDbBool, workerCounters } from '../support/src.js';
import { startReceiver, type Receiver } from './receiver.js';

/*
 * The delivery worker as the server runs it (docs/webhooks.md "Under load"): after a pass that found
 * work it goes on at once while the instance serves no request, and gives way to the requests it
 * serves otherwise, so that a write load that keeps the instance busy is not slowed by deliveries.
 */

const LOCAL = { webhooks: { ...loadConfig({}).webhooks, allowPrivate: true, workerIntervalMs: 50 } };
/** Pings queued behind the creation's own: three runs, one a pass. */
const PINGS = 2 * DELIVERIES_PER_RUN + 8;
const PASSES_WITH_WORK = Math.ceil((PINGS + 1) / DELIVERIES_PER_RUN);

describeEachStore(
  'The webhook worker',
  (h) => {
    const { server, open } = listening(h);
    let receiver: Receiver;
    let worker: { stop(): Promise<void> };
    beforeAll(async () => {
      receiver = await startReceiver();
      worker = startWebhookWorker(h.app);
    });
    afterAll(async () => {
      await worker.stop();
      await receiver.close();
    });

    /** A disabled webhook with its pings queued: enabling it (in the store, not by a request) hands the worker its backlog. */
    async function backlog(ws: TestWorkspace): Promise<() => Promise<void>> {
      const hook = await ok(as(h, ws).post('/api/webhooks', { url: receiver.url(), events: ['*'], enabled: false }));
      for (let i = 0; i < PINGS; i++) await ok(as(h, ws).post(`/api/webhooks/${hook.id}/ping`));
      await untilOthersInFlight(0);
      return async () => {
        await sql`update webhooks set enabled = ${toDbBool(true)} where id = ${hook.id}`.execute(h.app.db);
      };
    }

    async function untilReceived(count: number): Promise<void> {
      for (let attempt = 0; receiver.received.length < count; attempt++) {
        if (attempt === 3_000) throw new Error(`received ${receiver.received.length} of ${count}`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    }

    /** Until the condition holds, or the worker's last pass has surely ended (a second). */
    async function settled(condition: () => boolean): Promise<void> {
      for (let attempt = 0; attempt < 100 && !condition(); attempt++) await new Promise((resolve) => setTimeout(resolve, 10));
    }

    it('gives way after each pass that found work while the instance serves a request, and never while it serves none', async () => {
      const ws = await h.workspace();
      const busy = await backlog(ws);
      const held = heldRequest(server.port, ws, ws.admin.token);
      open.push(held);
      await untilOthersInFlight(1);
      receiver.received.length = 0;
      const before = workerCounters.passesBeforeGivingWay;
      await busy();
      await untilReceived(PINGS + 1);
      // A pass counts once its outcomes are recorded, a little after its last delivery arrived.
      await settled(() => workerCounters.passesBeforeGivingWay - before >= PASSES_WITH_WORK);
      expect(workerCounters.passesBeforeGivingWay - before).toBe(PASSES_WITH_WORK);
      held.destroy();
      await untilOthersInFlight(0);

      const quiet = await backlog(ws);
      receiver.received.length = 0;
      const alone = workerCounters.passesBeforeGivingWay;
      await quiet();
      await untilReceived(PINGS + 1);
      await settled(() => false);
      expect(workerCounters.passesBeforeGivingWay - alone).toBe(0);
    }, 60_000);
  },
  LOCAL,
);
