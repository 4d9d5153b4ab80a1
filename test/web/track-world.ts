import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { make } from '../support/factories/index.js';
import { as, type Harness, type TestUser, type TestWorkspace } from '../support/harness.js';

/*
 * The workspace the Track and Timesheet browser tests work in: Uma, a User, is a member of four
 * projects, three of them of two clients; one project has tasks (an archived one among them), and
 * the workspace has tags (an archived one among them).
 */

export interface TrackWorld {
  ws: TestWorkspace;
  uma: TestUser;
  clients: { acme: { id: string }; globex: { id: string } };
  projects: Record<'website' | 'mobile' | 'intranet' | 'internal', { id: string; name: string }>;
  tasks: Record<'design' | 'build' | 'retired' | 'support', { id: string; name: string }>;
  tags: Record<'urgent' | 'review' | 'old', { id: string; name: string }>;
  /** Calls as Uma. */
  asUma: ReturnType<typeof as>;
  /** An activity of Uma's as the API answers it. */
  activity(id: string): Promise<{ id: string; name: string; projectId: string | null; taskId: string | null; tagIds: string[]; billable: boolean; startedAt: string; endedAt: string | null }>;
  /** Uma's activities as the API lists them. */
  activities(): Promise<Array<{ id: string; name: string; projectId: string | null; taskId: string | null; tagIds: string[]; billable: boolean; startedAt: string; endedAt: string | null }>>;
  /** The workspace's tags as the API lists them. */
  tagList(): Promise<Array<{ id: string; name: string; archived: boolean }>>;
}

export async function trackWorld(h: Harness): Promise<TrackWorld> {
  const ws = await h.workspace();
  const uma = await h.user(ws);
  const admin = as(h, ws);
  const acme = await make.client(h, ws, { name: 'Acme' });
  const globex = await make.client(h, ws, { name: 'Globex' });
  const website = await make.project(h, ws, { name: 'Website', clientId: acme.id, billable: true });
  const mobile = await make.project(h, ws, { name: 'Mobile app', clientId: acme.id });
  const intranet = await make.project(h, ws, { name: 'Intranet', clientId: globex.id });
  const internal = await make.project(h, ws, { name: 'Internal' });
  for (const project of [website, mobile, intranet, internal]) await make.member(h, ws, { project, user: uma });
  const design = await make.task(h, ws, { project: website, name: 'Design', billable: false });
  const build = await make.task(h, ws, { project: website, name: 'Build' });
  const retired = await make.task(h, ws, { project: website, name: 'Retired', archived: true });
  const support = await make.task(h, ws, { project: intranet, name: 'Support' });
  const tag = async (name: string) => {
    const made = await admin.post('/api/tags', { name });
    expect(made.status).toBe(200);
    return made.body as { id: string; name: string };
  };
  const urgent = await tag('urgent');
  const review = await tag('review');
  const old = await tag('old');
  expect((await admin.put(`/api/tags/${old.id}`, { archived: true })).status).toBe(200);
  const asUma = as(h, ws, uma);
  return {
    ws,
    uma,
    clients: { acme, globex },
    projects: { website, mobile, intranet, internal },
    tasks: { design, build, retired, support },
    tags: { urgent, review, old },
    asUma,
    async activity(id) {
      const answer = await asUma.get(`/api/activities/${id}`);
      expect(answer.status).toBe(200);
      return answer.body;
    },
    async activities() {
      const answer = await asUma.get('/api/activities');
      expect(answer.status).toBe(200);
      return Object.values(answer.body);
    },
    async tagList() {
      const answer = await asUma.get('/api/tags');
      expect(answer.status).toBe(200);
      return Object.values(answer.body);
    },
  };
}

/** expect.poll with the time a page takes to draw what it loaded, longer on a busy machine than an API call's answer. */
export const settled = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 15_000 });

/** Monday of this week (UTC, the browsers' and the workspace's zone) at hh:mm, `days` later. */
export function thisWeekAt(days: number, hh: number, mm = 0): string {
  const now = new Date();
  const monday = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - ((now.getUTCDay() + 6) % 7));
  return new Date(monday + days * 86_400_000 + (hh * 60 + mm) * 60_000).toISOString();
}

/** The id of the element that has the focus ('' for none). */
export const focusedId = (page: Page) => page.evaluate('document.activeElement ? document.activeElement.id : ""') as Promise<string>;

/** The aria-label of the element that has the focus. */
export const focusedLabel = (page: Page) => page.evaluate('document.activeElement && document.activeElement.getAttribute("aria-label")') as Promise<string | null>;

/** How wide the page is drawn (wider than the window: it scrolls sideways). */
export const pageWidth = (page: Page) => page.evaluate('document.documentElement.scrollWidth') as Promise<number>;

/** Presses Tab (Shift+Tab when `back`) until the element of this id has the focus (the keyboard's way there), at most 60 times. */
export async function tabTo(page: Page, id: string, options: { back?: boolean } = {}): Promise<void> {
  for (let presses = 0; presses < 60; presses++) {
    if ((await focusedId(page)) === id) return;
    await page.keyboard.press(options.back ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`Tab never reached #${id}`);
}

/** The texts of the options of the open list of this name, part by part: an option alone as ['', [text]], a group as [its heading, its options]. */
export async function openList(page: Page, name: string): Promise<Array<[string, string[]]>> {
  const list = page.getByRole('listbox', { name });
  await list.waitFor();
  const parts: Array<[string, string[]]> = [];
  for (const child of await list.locator(':scope > *').all()) {
    if ((await child.getAttribute('role')) === 'option') parts.push(['', [(await child.textContent()) ?? '']]);
    else {
      expect(await child.getAttribute('role')).toBe('group');
      const heading = await page.locator(`[id="${await child.getAttribute('aria-labelledby')}"]`).textContent();
      parts.push([heading ?? '', await child.getByRole('option').allTextContents()]);
    }
  }
  return parts;
}
