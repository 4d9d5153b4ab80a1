import { Buffer } from 'node:buffer';

/** The order of a listing: startedAt, then id. A piece of a long listing continues after the last key of the one before. */
export interface ListKey {
  startedAt: string;
  id: string;
}

const ID_MARK = '{"id":"';
const STARTED_MARK = '"startedAt":"';
/** Characters in a canonical instant (`2026-07-04T09:00:00.000Z`). */
const INSTANT_LENGTH = 24;
/** Bytes that surely hold the last rendered entry (a name of 200 characters escapes to at most 1,200). */
const LAST_ENTRY_BYTES = 4096;

/**
 * The key of the last entry of rendered entries (`…,"<id>":{"id":"<id>",…,"startedAt":"<instant>",…}`).
 * Read back from the rendering rather than selected beside it, which would cost SQLite a copy of
 * every row. The marks cannot occur inside a rendered string: a quote there is always escaped.
 */
export function lastKeyOf(entries: Buffer | string): ListKey {
  const tail = typeof entries === 'string' ? entries.slice(-LAST_ENTRY_BYTES) : entries.subarray(-LAST_ENTRY_BYTES).toString('utf8');
  const idStart = tail.lastIndexOf(ID_MARK) + ID_MARK.length;
  const startedStart = tail.lastIndexOf(STARTED_MARK) + STARTED_MARK.length;
  return { id: tail.slice(idStart, tail.indexOf('"', idStart)), startedAt: tail.slice(startedStart, startedStart + INSTANT_LENGTH) };
}

/** A canonical instant, as rendered (`2026-07-04T09:00:00.000Z`). */
const CANONICAL_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/**
 * The opaque cursor of GET /activities: the key of the last entry of a page, as base64url of its
 * JSON, so a client never builds one and the service can change what it holds.
 */
export function cursorOf(key: ListKey): string {
  return Buffer.from(JSON.stringify([key.startedAt, key.id])).toString('base64url');
}

/** The key a cursor holds, or undefined when the text is not a cursor this service gave. */
export function keyOfCursor(cursor: string): ListKey | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (!Array.isArray(parsed) || parsed.length !== 2) return undefined;
  const [startedAt, id] = parsed as unknown[];
  if (typeof startedAt !== 'string' || !CANONICAL_INSTANT.test(startedAt)) return undefined;
  if (typeof id !== 'string' || id.length === 0 || id.length > 64) return undefined;
  return { startedAt, id };
}
