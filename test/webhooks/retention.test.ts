import { expect, it } from 'vitest';
import { make } from '../support/factories/index.js';
import { as, describeEachStore, ok } from '../support/harness.js';
import { deliverWebhooks, loadConfig, pruneChanges } from '../support/src.js';
import { suiteReceiver } from './receiver.js';

const RETENTION_MS = 1_500;
const LOCAL = { webhooks: { ...loadConfig({}).webhooks, allowPrivate: true, timeoutMs: 1_000, leaseMs: 5_000 } };

const warnings = (logs: string[], webhookId: string) =>
  logs
    .flatMap((chunk) => chunk.split('\n'))
    .filter((line) => line.includes('webhook missed change-feed events'))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((line) => line.webhookId === webhookId);

describeEachStore(
  'Webhooks: a webhook further behind its feed than the feed keeps (docs/webhooks.md "The queue")',
  (h) => {
    const receiver = suiteReceiver();

    it('is warned of once in the log, naming the webhook, its workspace and the pruned positions, and gets the events kept', async () => {
      const ws = await h.workspace();
      const hook = await ok(as(h, ws).post('/api/webhooks', { url: receiver().url('/behind'), events: ['activity.created'] }));
      await make.activity(h, ws);
      await new Promise((resolve) => setTimeout(resolve, RETENTION_MS + 200));
      await pruneChanges(h.app.db, RETENTION_MS);
      const kept = await make.activity(h, ws);

      receiver().received.length = 0;
      await deliverWebhooks(h.app);
      // The creation's ping is no change of the feed: it is delivered as ever.
      const delivered = receiver().received.map((r) => JSON.parse(r.body)).filter((envelope) => envelope.type !== 'ping');
      expect(delivered.map((envelope) => [envelope.type, envelope.data.id])).toEqual([['activity.created', kept.id]]);

      const [warning, ...more] = warnings(h.logs, hook.id);
      expect(more).toEqual([]);
      expect(warning).toMatchObject({ level: 40, webhookId: hook.id, workspace: ws.domain });
      expect(warning.prunedThrough as number).toBeGreaterThan(warning.after as number);

      await make.activity(h, ws);
      await deliverWebhooks(h.app);
      expect(warnings(h.logs, hook.id)).toHaveLength(1);
    });
  },
  { changeRetentionMs: RETENTION_MS, ...LOCAL },
);
