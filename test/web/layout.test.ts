import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { make } from '../support/factories/index.js';
import { describeInBrowser, expectAccessible, screenshot } from './manage-browser.js';
import { settled, thisWeekAt, trackWorld } from './track-world.js';

/* Issue 37, defect 11: no page scrolls sideways and nothing sticks out of its card, at 360, 768 and 1280 px; a menu for the navigation on phones. */

const WIDTHS = [360, 768, 1280];
const LONG = 'Quarterly stakeholder alignment workshop preparation and follow-up notes';

/**
 * What sticks out: every visible element of the main content that is drawn outside the card (or
 * day, timer, grid) holding it, as "card › element: how far"; an element inside a box that scrolls
 * sideways is measured against that box, which is measured against its card.
 */
async function overflows(page: Page): Promise<string[]> {
  // A string: the tests' TypeScript knows no DOM.
  return page.evaluate(`(() => {
    const found = [];
    const name = (el) => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + (el.classList.length ? '.' + [...el.classList].join('.') : '') + (el.textContent ? ' "' + el.textContent.trim().slice(0, 30) + '"' : '');
    const clips = (el) => getComputedStyle(el).overflowX !== 'visible';
    for (const card of document.querySelectorAll('main .card, main .day, main .timer, main .grid-wrap, main .table-wrap')) {
      const box = card.getBoundingClientRect();
      // A box that scrolls sideways holds what it scrolls; it is measured against its card.
      if (box.width === 0 || clips(card)) continue;
      for (const el of card.querySelectorAll('*')) {
        const rect = el.getBoundingClientRect();
        // Hidden, or a screen reader's text only.
        if (rect.width <= 1 || rect.height <= 1 || getComputedStyle(el).visibility === 'hidden') continue;
        let clipped = false;
        for (let up = el.parentElement; up && up !== card; up = up.parentElement) if (clips(up)) clipped = true;
        if (clipped) continue;
        if (rect.right > box.right + 1) found.push(name(card) + ' › ' + name(el) + ': ' + Math.round(rect.right - box.right) + ' px right');
        if (rect.left < box.left - 1) found.push(name(card) + ' › ' + name(el) + ': ' + Math.round(box.left - rect.left) + ' px left');
      }
    }
    return found;
  })()`) as Promise<string[]>;
}

/** The page at each width: what scrolls sideways or sticks out of its card, as readable lines (none when it fits). */
async function misfits(page: Page, label: string): Promise<string[]> {
  const found: string[] = [];
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 800 });
    // What follows its box's size (the report's chart, by a ResizeObserver) redraws before the second frame.
    await page.evaluate('new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))');
    const scrollWidth = (await page.evaluate('document.documentElement.scrollWidth')) as number;
    if (scrollWidth > width) {
      const widest = (await page.evaluate(`[...document.querySelectorAll('body *')].filter((el) => { for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) if (getComputedStyle(up).overflowX !== 'visible') return false; return el.getBoundingClientRect().right > innerWidth + 1; }).map((el) => el.tagName + '.' + el.className + ' ' + (el.id || (el.textContent || '').slice(0, 30))).slice(0, 5)`)) as string[];
      found.push(`${label} at ${width} px scrolls sideways: ${scrollWidth} px wide (${widest.join('; ')})`);
    }
    for (const line of await overflows(page)) found.push(`${label} at ${width} px: ${line}`);
  }
  return found;
}

describeInBrowser('Web app: every page fits its window', ({ h, open }) => {
  it('no page scrolls sideways and nothing sticks out of its card at 360, 768 or 1280 px, with long names, tasks, tags and a report', async () => {
    const t = await trackWorld(h);
    const admin = t.ws.admin;
    const acme = t.clients.acme;
    const long = await make.project(h, t.ws, { name: 'Municipal infrastructure modernisation programme', clientId: acme.id, billable: true });
    await make.member(h, t.ws, { project: long, user: t.uma });
    await make.task(h, t.ws, { project: long, name: 'Stakeholder interviews and synthesis' });
    for (const [day, from, project] of [[0, 9, t.projects.website], [1, 9, long], [2, 13, long]] as const) {
      await make.activity(h, t.ws, { owner: admin, name: LONG, project, tagIds: [t.tags.urgent.id, t.tags.review.id], startedAt: thisWeekAt(day, from), endedAt: thisWeekAt(day, from + 2, 15) });
    }
    await make.activity(h, t.ws, { owner: t.uma, name: LONG, project: long, startedAt: thisWeekAt(0, 9), endedAt: thisWeekAt(0, 11) });
    const now = new Date();
    await make.request(h, t.ws, { kind: 'timesheetUnlock', by: t.uma, year: now.getUTCFullYear(), week: 1 });
    await make.request(h, t.ws, { kind: 'projectAssignment', by: t.uma });

    const page = await open(t.ws, admin, '/');
    await page.locator('.entry').first().waitFor();
    await settled(() => page.locator('.entry').count()).toBe(3);
    const found = await misfits(page, 'Track');

    // Settings holds the tags.
    for (const title of ['Dashboard', 'Timesheet', 'Profile', 'Clients', 'Team', 'Requests', 'Settings', 'Geofences']) {
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: title, exact: true }).click();
      await page.getByRole('heading', { name: title, level: 1 }).waitFor();
      await page.waitForLoadState('networkidle');
      found.push(...(await misfits(page, title)));
    }

    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Projects', exact: true }).click();
    await page.getByRole('button', { name: `Open ${long.name}` }).click();
    await page.getByRole('heading', { name: long.name }).first().waitFor();
    await page.waitForLoadState('networkidle');
    found.push(...(await misfits(page, 'A project')));

    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Reports', exact: true }).click();
    const form = page.getByRole('form', { name: 'Report' });
    await form.getByRole('button', { name: 'Add person' }).click();
    for (const metric of ['Revenue', 'Cost', 'Profit']) await form.getByLabel(metric, { exact: true }).check();
    await page.getByRole('button', { name: 'Run report' }).click();
    await page.getByTestId('report-totals').waitFor();
    found.push(...(await misfits(page, 'Reports')));
    expect(found).toEqual([]);
  });

  it('a Track entry\'s fields show its name at 1280 px, and a timesheet cell\'s error moves no other cell', async () => {
    const t = await trackWorld(h);
    await make.activity(h, t.ws, { owner: t.uma, name: LONG, project: t.projects.website, taskId: t.tasks.design.id, tagIds: [t.tags.urgent.id], startedAt: thisWeekAt(0, 9), endedAt: thisWeekAt(0, 10) });
    const page = await open(t.ws, t.uma, '/');
    await page.setViewportSize({ width: 1280, height: 800 });
    const name = page.locator('.entry').getByRole('textbox', { name: 'Description' });
    await name.waitFor();
    // At least 30 characters of the name show (an "m" is wider than most letters: 0.6em a character).
    const shown = await name.evaluate((input) => input.clientWidth / (parseFloat(input.ownerDocument.defaultView!.getComputedStyle(input).fontSize) * 0.6));
    expect(shown).toBeGreaterThanOrEqual(30);

    await page.goto(page.url().replace(/\/$/, '/timesheet'));
    const cells = page.locator('table.grid tbody tr').first().getByRole('textbox');
    await cells.first().waitFor();
    const places = () => page.locator('table.grid input').evaluateAll((inputs) => inputs.map((input) => { const r = input.getBoundingClientRect(); return [Math.round(r.left), Math.round(r.top), Math.round(r.width)]; }));
    for (const width of [1280, 360]) {
      await page.setViewportSize({ width, height: 800 });
      await cells.nth(3).fill('');
      await cells.nth(3).press('Enter');
      const before = await places();
      await cells.nth(3).fill('not a time');
      await cells.nth(3).press('Enter');
      await expect.poll(() => cells.nth(3).getAttribute('aria-invalid')).toBe('true');
      expect(await places()).toEqual(before);
      await cells.nth(3).fill('');
      await cells.nth(3).press('Enter');
    }
  });

  it('on a phone the navigation is one line with a menu button that opens the links, from the keyboard too', async () => {
    const t = await trackWorld(h);
    const page = await open(t.ws, t.ws.admin, '/');
    await page.setViewportSize({ width: 360, height: 780 });
    const header = page.locator('header.top');
    const menu = page.getByRole('button', { name: 'Menu' });
    const nav = page.getByRole('navigation', { name: 'Main' });
    // One line: the header is no taller than its tallest item and the links are hidden.
    expect(await header.evaluate((el) => el.getBoundingClientRect().height)).toBeLessThan(60);
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    expect(await nav.getByRole('link', { name: 'Timesheet' }).isVisible()).toBe(false);
    await expectAccessible(page);

    await menu.focus();
    await page.keyboard.press('Enter');
    expect(await menu.getAttribute('aria-expanded')).toBe('true');
    await nav.getByRole('link', { name: 'Dashboard' }).waitFor();
    await expect.poll(() => page.evaluate('document.activeElement.textContent')).toBe('Dashboard');
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBe(360);
    await expectAccessible(page);
    await screenshot(page, 'navigation-menu', h);
    // Escape closes it from a link, the focus back on the button.
    await page.keyboard.press('Escape');
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    expect(await page.evaluate('document.activeElement.getAttribute("aria-label") || document.activeElement.textContent')).toBe('Menu');
    expect(await nav.getByRole('link', { name: 'Track' }).isVisible()).toBe(false);

    // A link taken from the menu goes there and closes it.
    await menu.click();
    await nav.getByRole('link', { name: 'Timesheet' }).click();
    await page.getByRole('heading', { name: 'Timesheet', level: 1 }).waitFor();
    expect(await menu.getAttribute('aria-expanded')).toBe('false');

    // Wider, the links show in the bar and there is no menu button.
    await page.setViewportSize({ width: 1280, height: 800 });
    expect(await menu.isVisible()).toBe(false);
    expect(await nav.getByRole('link', { name: 'Timesheet' }).isVisible()).toBe(true);
  });
});
