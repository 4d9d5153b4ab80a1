import { expect, it } from 'vitest';
import { make } from '../support/factories/index.js';
import { as, describeEachStore } from '../support/harness.js';
import { pruneChanges } from '../support/src.js';
import { feedEnd, readFeed } from './feed-support.js';

const RETENTION_MS = 1_500;

describeEachStore(
  'Change feed: retention (docs/rules.md §6 Change feed)',
  (h) => {
    it('events older than the retention are pruned; a cursor before them is 410 with what to do, and the feed goes on from its start', async () => {
      const ws = await h.workspace();
      const start = await feedEnd(h, ws);
      const old = await make.activity(h, ws);
      const mid = await feedEnd(h, ws);
      await new Promise((resolve) => setTimeout(resolve, RETENTION_MS + 200));
      const recent = await make.activity(h, ws);
      expect(await pruneChanges(h.app.db, RETENTION_MS)).toBeGreaterThan(0);

      const expired = await as(h, ws).get('/api/changes', undefined, { query: { after: start } });
      expect(expired.status).toBe(410);
      expect(expired.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(expired.body).toMatchObject({ status: 410, code: 'gone' });
      expect(expired.body.detail).toMatch(/listings/);
      expect(expired.body.detail).toMatch(/without `after`/);
      // A cursor at the pruned mark misses nothing: it still reads.
      const fromMid = await as(h, ws).get('/api/changes', undefined, { query: { after: mid } });
      expect(fromMid.status).toBe(200);
      expect(fromMid.body.events.map((event: any) => event.data.id)).toEqual([recent.id]);
      // Without after: from the oldest event kept.
      const { events } = await readFeed(h, ws);
      expect(events.map((event) => event.data.id)).toEqual([recent.id]);
      expect(events.map((event) => event.data.id)).not.toContain(old.id);
    });

    it('the feed of a workspace whose every event was pruned continues after the pruned positions', async () => {
      const ws = await h.workspace();
      await make.activity(h, ws);
      const end = await feedEnd(h, ws);
      await new Promise((resolve) => setTimeout(resolve, RETENTION_MS + 200));
      await pruneChanges(h.app.db, RETENTION_MS);
      expect(await feedEnd(h, ws)).toBe(end);
      const next = await make.activity(h, ws);
      const res = await as(h, ws).get('/api/changes', undefined, { query: { after: end } });
      expect(res.status).toBe(200);
      expect(res.body.events.map((event: any) => event.data)).toEqual([next]);
    });

    it('the server prunes on its own, every tenth of the retention', async () => {
      const ws = await h.workspace();
      const start = await feedEnd(h, ws);
      await make.activity(h, ws);
      await new Promise((resolve) => setTimeout(resolve, RETENTION_MS * 1.5 + 500));
      expect((await as(h, ws).get('/api/changes', undefined, { query: { after: start } })).status).toBe(410);
    });
  },
  { changeRetentionMs: RETENTION_MS },
);
