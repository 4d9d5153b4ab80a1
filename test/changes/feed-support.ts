import { expect } from 'vitest';
import { as, type Harness, type TestUser, type TestWorkspace } from '../support/harness.js';

export interface FeedEvent {
  id: string;
  type: string;
  createdAt: string;
  actorId: string | null;
  data: any;
}

/** Every event the user reads, following the cursor from the start (or from `after`) to the feed's end. */
export async function readFeed(
  h: Harness,
  ws: TestWorkspace,
  user: TestUser = ws.admin,
  after?: string,
  limit = 1000,
): Promise<{ events: FeedEvent[]; cursor: string }> {
  const events: FeedEvent[] = [];
  let cursor = after;
  for (;;) {
    const query: Record<string, string> = { limit: String(limit) };
    if (cursor !== undefined) query.after = cursor;
    const res = await as(h, ws, user).get('/api/changes', undefined, { query });
    expect(res.status, res.text).toBe(200);
    events.push(...res.body.events);
    cursor = res.body.cursor as string;
    if (!res.body.hasMore) return { events, cursor };
  }
}

/** The position a reader is at now: the cursor of the feed's end. */
export async function feedEnd(h: Harness, ws: TestWorkspace, user: TestUser = ws.admin): Promise<string> {
  return (await readFeed(h, ws, user)).cursor;
}

/** The events after `after`, as `[type, data]` pairs. */
export async function changesSince(h: Harness, ws: TestWorkspace, after: string, user: TestUser = ws.admin): Promise<Array<[string, any]>> {
  return (await readFeed(h, ws, user, after)).events.map((event) => [event.type, event.data]);
}
