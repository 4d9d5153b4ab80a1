import { signal } from '@preact/signals';
import { api, sendFile, type Problem, type Schemas } from '../api/client.js';
import type { paths } from '../api/schema.js';
import { announceChange } from './changes.js';
import { organization } from './organization.js';

/*
 * Imports of another tool's export, or of another timetrack workspace's (GET /export's ZIP), for the
 * settings page (docs/rules.md §6 Imports): the one the page follows (queued or running, then its
 * outcome), started with the file as the request's body.
 */

export type Import = Schemas['Import'];
export type ImportProblem = Import['errors'][number];
type StartImport = paths['/imports']['post'];
export type ImportQuery = StartImport['parameters']['query'];
export type ImportSource = ImportQuery['source'];
type Started = StartImport['responses'][202]['content']['application/json'];

/** How often a queued or running import is asked for its progress. */
const POLL_MS = 600;

/** A problem the page met itself (no answer, or one that is no problem document), shown as the API's are. */
const localProblem = (detail: string, status: number): Problem => ({ type: 'about:blank', title: detail, detail, status, code: 'client' });

export const hasEnded = (found: Import): boolean => found.status === 'succeeded' || found.status === 'failed';

/** The import the page shows: one queued or running (its progress), or the one it last followed to its end; null for none. */
export const currentImport = signal<Import | null>(null);

/** The id being polled; a new follow (or stopFollowing) ends the previous loop. */
let following: string | null = null;
/** Counts the page's leavings: a listing answered after the page was left starts no polling. */
let leavings = 0;

/**
 * The workspace's queued or running import, if any (one at a time: it is the newest unfinished),
 * shown and followed: a page reloaded during an import picks its progress up again.
 */
export async function loadActiveImport(): Promise<Problem | undefined> {
  const left = leavings;
  const answer = await api.GET('/imports');
  if (left !== leavings) return undefined;
  if (answer.error) return answer.error;
  const active = Object.values(answer.data).find((found) => !hasEnded(found));
  if (active) {
    currentImport.value = active;
    void follow(active.id);
  }
  return undefined;
}

/** The media type a source's file is sent as, whatever the browser took its type to be: timetrack's export is a ZIP, the others' a CSV. */
const fileTypeOf = (source: ImportSource): string => (source === 'timetrack' ? 'application/zip' : 'text/csv');

/** Sends the file (as its source's media type) and follows the queued import. */
export async function startImport(query: ImportQuery, file: Blob): Promise<Problem | undefined> {
  const left = leavings;
  let response: Response;
  try {
    response = await sendFile('/imports', query, file, fileTypeOf(query.source));
  } catch {
    return localProblem('The file could not be sent. Check the connection and try again.', 0);
  }
  const body: unknown = await response.json().catch(() => undefined);
  if (response.status !== 202) {
    // Another import runs (409): it is shown and followed, as a reload would find it.
    if (response.status === 409) void loadActiveImport();
    const problem = body as Problem | undefined;
    return problem?.status ? problem : localProblem(`The import was refused (${response.status} ${response.statusText}).`, response.status);
  }
  const started = body as Started;
  if (left !== leavings) return undefined;
  currentImport.value = started;
  void follow(started.id);
  return undefined;
}

/** Asks for the import until it has ended; a real import's records are then announced to the pages (and other tabs). */
async function follow(importId: string): Promise<void> {
  following = importId;
  for (;;) {
    const answer = await api.GET('/imports/{importId}', { params: { path: { importId } } }).catch(() => undefined);
    if (following !== importId) return;
    if (answer?.data) {
      currentImport.value = answer.data;
      if (hasEnded(answer.data)) {
        following = null;
        if (!answer.data.dryRun && answer.data.status === 'succeeded') {
          // Another workspace's export brings its settings too: the organization is read again (kept as it was if that fails).
          if (answer.data.source === 'timetrack') void reloadOrganization();
          announceChange();
        }
        return;
      }
    } else if (answer?.response.status === 404 || answer?.response.status === 403) {
      following = null;
      return;
    }
    // A lost connection is asked again, as a poll would.
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    if (following !== importId) return;
  }
}

async function reloadOrganization(): Promise<void> {
  const answer = await api.GET('/organization').catch(() => undefined);
  if (answer?.data) organization.value = answer.data;
}

/** The page is left: no more polling, and nothing shown when it is opened again (a running import is found anew). */
export function stopFollowing(): void {
  leavings++;
  following = null;
  currentImport.value = null;
}

/** Forgets a finished import (the page's options or file changed: its dry run no longer says what an import would do). */
export function clearFinishedImport(): void {
  if (currentImport.value && hasEnded(currentImport.value)) currentImport.value = null;
}
