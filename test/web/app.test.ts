import { describe, expect, it } from 'vitest';
import { phoneScreenshot, seriousViolations } from '../support/browser.js';
import { testStores } from '../support/stores.js';
import { activitiesOf, signedIn, withTeamWorld } from './world.js';

/*
 * The web app in Chromium against the real server (bin/start.js on SQLite), as people use it.
 * These run on SQLite only; test/web/core-flows.test.ts runs the core flows on both stores.
 */

const sqlite = testStores.find((store) => store.name === 'sqlite')!;
const minutes = (a: { startedAt: string; endedAt: string | null }) => (Date.parse(a.endedAt!) - Date.parse(a.startedAt)) / 60_000;

describe('Web app in a browser', { timeout: 180_000 }, () => {
  const t = withTeamWorld(sqlite, 'acme');

  it('the timer starts, shows its elapsed time in the tab title, stops, continues, and its entry is edited in place', async () => {
    const { context, page } = await signedIn(t.browser, t.world, 'acme', t.team.user);
    await page.getByLabel('What are you working on?').fill('Writing the report');
    await page.getByLabel('Project', { exact: true }).fill('Apollo');
    await page.getByLabel('Project', { exact: true }).press('Tab');
    await expect.poll(() => page.getByLabel('Billable').first().isChecked()).toBe(true);
    await page.getByRole('button', { name: 'Start' }).click();
    await page.getByRole('button', { name: 'Stop' }).waitFor();
    await expect.poll(() => page.title(), { timeout: 5000 }).toMatch(/^0:00:0[1-9] · Writing the report · timetrack$/);
    let listed = await activitiesOf(t.world, 'acme', t.team.user.key);
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ name: 'Writing the report', endedAt: null, projectId: t.team.project.id });

    await page.getByRole('button', { name: 'Stop' }).click();
    await page.getByRole('button', { name: 'Start' }).waitFor();
    await expect.poll(async () => (await activitiesOf(t.world, 'acme', t.team.user.key))[0].endedAt).not.toBeNull();
    expect(await page.title()).toBe('Track · timetrack');

    await page.getByRole('button', { name: 'Continue “Writing the report”' }).click();
    await page.getByRole('button', { name: 'Stop' }).waitFor();
    listed = await activitiesOf(t.world, 'acme', t.team.user.key);
    expect(listed).toHaveLength(2);
    expect(listed.filter((a) => a.endedAt === null)).toMatchObject([{ name: 'Writing the report', projectId: t.team.project.id }]);
    await page.getByRole('button', { name: 'Stop' }).click();
    await page.getByRole('button', { name: 'Start' }).waitFor();

    const name = page.getByLabel('Description').first();
    await name.fill('Writing the annual report');
    await name.press('Enter');
    await expect.poll(async () => (await activitiesOf(t.world, 'acme', t.team.user.key)).map((a) => a.name)).toContain('Writing the annual report');
    await context.close();
  });

  it('a second tab sees the running timer, and a timer stopped in one tab stops in the other', async () => {
    const { context, page } = await signedIn(t.browser, t.world, 'acme', t.team.user);
    await page.getByLabel('What are you working on?').fill('Two tabs');
    await page.getByRole('button', { name: 'Start' }).click();
    await page.getByRole('button', { name: 'Stop' }).waitFor();
    const second = await context.newPage();
    await second.goto(`${t.world.origin('acme')}/`);
    await second.getByText('Two tabs', { exact: true }).waitFor();
    await second.getByRole('button', { name: 'Stop' }).click();
    await page.getByRole('button', { name: 'Start' }).waitFor();
    await context.close();
  });

  it('deleting an entry can be undone, and a problem from the API shows beside the field it names', async () => {
    const { context, page } = await signedIn(t.browser, t.world, 'acme', t.team.user);
    await page.getByLabel('What are you working on?').fill('To delete');
    await page.getByRole('button', { name: 'Start' }).click();
    await page.getByRole('button', { name: 'Stop' }).click();
    await page.getByRole('button', { name: 'Delete “To delete”' }).click();
    await page.getByRole('status').getByText('Deleted “To delete”.').waitFor();
    await expect.poll(async () => (await activitiesOf(t.world, 'acme', t.team.user.key)).some((a) => a.name === 'To delete')).toBe(false);
    await page.getByRole('button', { name: 'Undo' }).click();
    await page.getByRole('button', { name: 'Delete “To delete”' }).waitFor();
    expect((await activitiesOf(t.world, 'acme', t.team.user.key)).filter((a) => a.name === 'To delete')).toHaveLength(1);

    // A name of spaces only is refused by the API at /body/name: the message stands beside that field.
    const field = page.getByLabel('Description').first();
    const before = await field.inputValue();
    await field.fill('   ');
    await field.press('Enter');
    const error = page.locator(`#${await field.getAttribute('id')}-error`);
    await error.waitFor();
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    expect((await activitiesOf(t.world, 'acme', t.team.user.key)).map((a) => a.name)).toContain(before);
    await context.close();
  });

  it('a timesheet week typed as 1:30 and 1.5 is the same time through GET /api/activities, and a lowered cell shortens it', async () => {
    const { context, page } = await signedIn(t.browser, t.world, 'acme', t.team.user);
    await page.getByRole('link', { name: 'Timesheet' }).click();
    await page.getByRole('heading', { name: 'Timesheet' }).waitFor();
    await page.getByRole('button', { name: 'Previous week' }).click();
    await page.getByLabel('Add a project row').fill('Apollo');
    await page.getByLabel('Add a project row').press('Enter');
    const cells = page.getByRole('row', { name: /^Apollo/ }).getByRole('textbox');
    await cells.nth(0).fill('1:30');
    await cells.nth(0).press('Enter');
    await cells.nth(1).fill('1.5');
    await cells.nth(1).press('Enter');
    await cells.nth(2).fill('2h 15m');
    await cells.nth(2).press('Enter');
    await expect.poll(() => page.getByTestId('week-total').textContent()).toBe('5:15');
    const onApollo = async () => (await activitiesOf(t.world, 'acme', t.team.user.key)).filter((a) => a.projectId === t.team.project.id && a.name === 'Apollo');
    await expect.poll(async () => (await onApollo()).map(minutes).sort()).toEqual([135, 90, 90].sort());
    await cells.nth(2).fill('0:45');
    await cells.nth(2).press('Enter');
    await expect.poll(() => page.getByTestId('week-total').textContent()).toBe('3:45');
    expect((await onApollo()).map(minutes).reduce((sum, m) => sum + m, 0)).toBe(225);
    await context.close();
  });

  it("a User's locked week is read-only after the lock shows, and the unlock request reaches the administrator", async () => {
    const { context, page } = await signedIn(t.browser, t.world, 'acme', t.team.user);
    const now = new Date();
    const week = isoWeekOf(now);
    const locked = await t.world.api('acme', 'POST', '/timesheets/lock', { token: t.team.admin.key, body: { userId: t.team.user.userId, ...week } });
    expect(locked.status).toBe(200);
    const field = page.getByLabel('Description').first();
    await field.fill('Changed in a locked week');
    await field.press('Enter');
    await page.getByText('This week is locked: its entries are read-only.').waitFor();
    expect(await page.getByLabel('Description').first().getAttribute('readonly')).not.toBeNull();
    await page.getByRole('button', { name: 'Request unlock' }).click();
    await page.getByText('Your unlock request is waiting for an administrator.').waitFor();
    const requests = await t.world.api('acme', 'GET', '/requests', { token: t.team.admin.key });
    expect(Object.values(requests.body)).toContainEqual(expect.objectContaining({ type: 'timesheetUnlock', status: 'PENDING', createdBy: t.team.user.userId, ...week }));
    await t.world.api('acme', 'DELETE', `/timesheets/lock/${locked.body.id}`, { token: t.team.admin.key });
    await context.close();
  });

  it("an entry's date moved into a locked week is refused naming that week: the week shown stays editable and the unlock asked for is the locked week's", async () => {
    const startedAt = new Date(Date.now() - 70 * 60_000);
    const body = { name: 'Moved into a locked week', startedAt: startedAt.toISOString(), endedAt: new Date(Date.now() - 10 * 60_000).toISOString() };
    const created = await t.world.api('acme', 'POST', '/activities', { token: t.team.user.key, body });
    expect(created.status).toBe(200);
    const dayBefore = new Date(startedAt.getTime() - 7 * 86_400_000);
    const lockedWeek = isoWeekOf(dayBefore);
    const locked = await t.world.api('acme', 'POST', '/timesheets/lock', { token: t.team.admin.key, body: { userId: t.team.user.userId, ...lockedWeek } });
    expect(locked.status).toBe(200);
    const { context, page } = await signedIn(t.browser, t.world, 'acme', t.team.user);
    try {
      const entry = `#entry-${created.body.id}`;
      await page.locator(`${entry}-day`).fill(dayBefore.toISOString().slice(0, 10));
      await page.locator(`${entry}-day`).press('Enter');
      await page.getByText(`Week ${lockedWeek.week} of ${lockedWeek.year} is locked: the change was not saved.`).waitFor();
      // The week shown is not taken for the locked one: its entries stay editable, and nothing was moved.
      expect(await page.getByText('This week is locked: its entries are read-only.').count()).toBe(0);
      expect(await page.locator(`${entry}-name`).getAttribute('readonly')).toBeNull();
      expect(await page.getByRole('alert').filter({ hasText: '/requests/' }).count()).toBe(0);
      const kept = await t.world.api('acme', 'GET', `/activities/${created.body.id}`, { token: t.team.user.key });
      expect(kept.body.startedAt).toBe(created.body.startedAt);
      const requests = async () => (await t.world.api('acme', 'GET', '/requests', { token: t.team.admin.key })).body as Record<string, Record<string, unknown>>;
      const before = await requests();
      await page.getByRole('button', { name: `Request unlock of week ${lockedWeek.week}` }).click();
      await page.getByText(`Unlock of week ${lockedWeek.week} of ${lockedWeek.year} requested: an administrator will answer.`).waitFor();
      const filed = Object.values(await requests()).filter((request) => !(String(request.id) in before));
      expect(filed).toEqual([expect.objectContaining({ type: 'timesheetUnlock', status: 'PENDING', createdBy: t.team.user.userId, ...lockedWeek })]);
    } finally {
      await t.world.api('acme', 'DELETE', `/timesheets/lock/${locked.body.id}`, { token: t.team.admin.key });
      await t.world.api('acme', 'DELETE', `/activities/${created.body.id}`, { token: t.team.user.key });
      await context.close();
    }
  });

  it('an API key is created (shown once), works for an HTTP client, and stops working once revoked', async () => {
    const { context, page } = await signedIn(t.browser, t.world, 'acme', t.team.user);
    await page.getByRole('link', { name: 'Profile' }).click();
    await page.getByLabel("New key's name").fill('Laptop script');
    await page.getByRole('button', { name: 'Create key' }).click();
    const key = (await page.getByTestId('new-api-key').textContent())!;
    expect(key).toMatch(/^ttk_/);
    const auth = await t.world.api('acme', 'GET', '/auth', { token: key });
    expect(auth.status).toBe(200);
    expect(auth.body.email).toBe(t.team.user.email);
    await page.getByRole('button', { name: 'Revoke Laptop script' }).click();
    await page.getByRole('button', { name: 'Revoke Laptop script' }).waitFor({ state: 'detached' });
    expect((await t.world.api('acme', 'GET', '/auth', { token: key })).status).toBe(401);
    await page.reload();
    await page.getByRole('heading', { name: 'API keys' }).waitFor();
    expect(await page.getByTestId('new-api-key').count()).toBe(0);
    await context.close();
  });

  it('every page passes axe with no serious or critical violation, and is photographed at 360 px', async () => {
    const { context, page } = await signedIn(t.browser, t.world, 'acme', t.team.user);
    const pages: [string, string, string][] = [
      ['track', '/', 'Track'],
      ['timesheet', '/timesheet', 'Timesheet'],
      ['profile', '/profile', 'Profile'],
    ];
    for (const [name, path, heading] of pages) {
      await page.goto(`${t.world.origin('acme')}${path}`);
      await page.getByRole('heading', { name: heading, exact: true }).waitFor();
      await page.waitForLoadState('networkidle');
      expect(await seriousViolations(page), name).toEqual([]);
      await phoneScreenshot(page, name);
      await page.setViewportSize({ width: 1100, height: 800 });
    }
    await context.close();
  });

  it('prints the time to an interactive timer page with an empty cache', async () => {
    const { context } = await signedIn(t.browser, t.world, 'acme', t.team.user);
    const page = await context.newPage();
    await page.route('**/*', (route) => route.continue());
    await page.goto(`${t.world.origin('acme')}/`);
    await page.getByRole('button', { name: /^(Start|Stop)$/ }).waitFor();
    const ms = await page.evaluate(() => performance.now());
    console.log(`time to an interactive timer page (empty cache): ${Math.round(ms)} ms`);
    await context.close();
  });
});

function isoWeekOf(date: Date): { year: number; week: number } {
  const day = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
  day.setUTCDate(day.getUTCDate() + 3 - ((day.getUTCDay() + 6) % 7));
  const firstThursday = new Date(Date.UTC(day.getUTCFullYear(), 0, 4));
  firstThursday.setUTCDate(firstThursday.getUTCDate() + 3 - ((firstThursday.getUTCDay() + 6) % 7));
  return { year: day.getUTCFullYear(), week: 1 + Math.round((day.getTime() - firstThursday.getTime()) / (7 * 86_400_000)) };
}
