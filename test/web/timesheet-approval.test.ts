import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { make } from '../support/factories/index.js';
import { as } from '../support/harness.js';
import { describeInBrowser, expectAccessible, screenshot } from './manage-browser.js';
import { settled, thisWeekAt } from './track-world.js';

/*
 * Issue 37, defect 3: an approved week is locked for its person (docs/rules.md §6 Requests, Timesheet
 * locks), the timesheet shows the person's own week's state, and administrators lock a person's
 * week from the Team page.
 */

/** The ISO week of an instant, in UTC (the workspace's and the browser's time zone here). */
function isoWeekOf(instant: string): { year: number; week: number } {
  const day = new Date(instant);
  const thursday = new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate() + 3 - ((day.getUTCDay() + 6) % 7)));
  const year = thursday.getUTCFullYear();
  return { year, week: 1 + Math.floor((thursday.getTime() - Date.UTC(year, 0, 1)) / (7 * 86_400_000)) };
}

const weekInput = ({ year, week }: { year: number; week: number }) => `${year}-W${String(week).padStart(2, '0')}`;

/** Whether every cell of the grid is read-only (and how many there are). */
async function cellsReadOnly(page: Page): Promise<boolean[]> {
  return Promise.all((await page.locator('table.grid tbody input').all()).map(async (cell) => (await cell.getAttribute('readonly')) !== null));
}

describeInBrowser('Web app: an approved timesheet week is locked', ({ h, open }) => {
  it('a week the administrator approves is locked and read-only for its User, without "Submit for approval"; a week the administrator locks from the Team page is locked for them too', async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    const thisWeek = isoWeekOf(thisWeekAt(0, 9));
    const lastWeek = isoWeekOf(thisWeekAt(-7, 9));
    await make.activity(h, ws, { owner: user, name: 'Planning', startedAt: thisWeekAt(0, 9), endedAt: thisWeekAt(0, 10) });
    await make.activity(h, ws, { owner: user, name: 'Earlier', startedAt: thisWeekAt(-7, 9), endedAt: thisWeekAt(-7, 10) });

    // The User submits this week.
    const sheet = await open(ws, user, '/timesheet');
    await sheet.getByRole('row', { name: /^No project/ }).waitFor();
    await sheet.getByRole('button', { name: 'Submit for approval' }).click();
    await sheet.getByText('Submitted for approval.').waitFor();
    await sheet.locator('.week-state').getByText('Open · awaiting approval').waitFor();
    expect(await sheet.getByRole('button', { name: 'Submit for approval' }).count()).toBe(0);

    // The administrator grants it on the Requests page: the week is locked for the User.
    const requests = await open(ws, ws.admin, '/requests');
    await requests.getByRole('button', { name: new RegExp(`^Grant: Test User submits week ${thisWeek.week} of ${thisWeek.year}`) }).click();
    await requests.getByText('Nothing is waiting.').waitFor();
    const locks = async () => Object.values((await as(h, ws).get('/api/timesheets/locks', undefined, { query: { userId: user.userId } })).body as Record<string, any>);
    expect(await locks()).toMatchObject([{ userId: user.userId, ...thisWeek, unlockedTo: null }]);

    await sheet.reload();
    await sheet.getByRole('row', { name: /^No project/ }).waitFor();
    await sheet.locator('.week-state').getByText('Locked · approved').waitFor();
    await sheet.getByText('This week is locked: its time is read-only.').waitFor();
    expect(await sheet.getByRole('button', { name: 'Submit for approval' }).count()).toBe(0);
    expect(await sheet.getByRole('button', { name: 'Request unlock' }).count()).toBe(1);
    expect(await cellsReadOnly(sheet)).toEqual([true, true, true, true, true, true, true]);
    expect(await sheet.getByLabel('Add a project row').count()).toBe(0);
    const refused = await as(h, ws, user).post('/api/activities', { name: 'More', startedAt: thisWeekAt(1, 9), endedAt: thisWeekAt(1, 10) });
    expect(refused.status).toBe(423);
    await expectAccessible(sheet);
    await screenshot(sheet, 'timesheet-approved', h);

    // The administrator locks last week of that person from the Team page.
    const team = await open(ws, ws.admin, '/team');
    await team.getByRole('button', { name: "Test User's timesheet locks" }).click();
    const listed = team.getByRole('list', { name: "Test User's locked weeks" });
    await listed.getByText(new RegExp(`^Week ${thisWeek.week} of ${thisWeek.year} \\(.+\\) · locked$`)).waitFor();
    await team.getByLabel('Week to lock').fill(weekInput(lastWeek));
    await team.getByRole('button', { name: 'Lock week', exact: true }).click();
    await team.getByText(new RegExp(`^Week ${lastWeek.week} of ${lastWeek.year} \\(.+\\) is locked for Test User\\.$`)).waitFor();
    await listed.getByText(new RegExp(`^Week ${lastWeek.week} of ${lastWeek.year} \\(.+\\) · locked$`)).waitFor();
    expect((await locks()).map((lock) => [lock.year, lock.week, lock.unlockedTo]).sort()).toEqual(
      [
        [thisWeek.year, thisWeek.week, null],
        [lastWeek.year, lastWeek.week, null],
      ].sort(),
    );
    await expectAccessible(team);
    await screenshot(team, 'team-timesheet-locks', h);

    // The User's change in that week is refused, and the week then shows locked and read-only.
    await sheet.getByRole('button', { name: 'Previous week' }).click();
    const monday = sheet.getByRole('row', { name: /^No project/ }).getByRole('textbox').first();
    await settled(() => monday.inputValue()).toBe('1:00');
    await monday.fill('2:00');
    await monday.press('Enter');
    await sheet.getByText(`Week ${lastWeek.week} of ${lastWeek.year} is locked`, { exact: false }).first().waitFor();
    await sheet.locator('.week-state').getByText(/^Locked/).waitFor();
    expect(await cellsReadOnly(sheet)).toEqual([true, true, true, true, true, true, true]);
    expect((await as(h, ws, user).get('/api/activities')).body).toSatisfy((activities: Record<string, any>) =>
      Object.values(activities).every((a) => Date.parse(a.endedAt) - Date.parse(a.startedAt) === 3_600_000),
    );

    // Unlocking it on the Team page removes the lock record.
    await team.getByRole('button', { name: `Unlock week ${lastWeek.week} of ${lastWeek.year} for Test User` }).click();
    await team.getByText(new RegExp(`^Week ${lastWeek.week} of ${lastWeek.year} \\(.+\\) is unlocked for Test User\\.$`)).waitFor();
    expect((await locks()).map((lock) => lock.week)).toEqual([thisWeek.week]);
    await expectAccessible(team);
  });

  it("an administrator's Timesheet page shows the administrator's own week's state, never a User's request for that week", async () => {
    const ws = await h.workspace();
    const user = await h.user(ws);
    const thisWeek = isoWeekOf(thisWeekAt(0, 9));
    const theirs = await make.request(h, ws, { kind: 'timesheetApproval', by: user, ...thisWeek });
    expect(theirs).toMatchObject({ status: 'PENDING' });

    const sheet = await open(ws, ws.admin, '/timesheet');
    await sheet.getByRole('button', { name: 'Submit for approval' }).waitFor();
    await sheet.locator('.week-state').getByText('Open', { exact: true }).waitFor();
    expect(await sheet.getByText(/awaiting approval|approved/).count()).toBe(0);

    // The administrator's own submission is theirs to see, once.
    await sheet.getByRole('button', { name: 'Submit for approval' }).click();
    await sheet.locator('.week-state').getByText('Open · awaiting approval').waitFor();
    expect(await sheet.getByRole('button', { name: 'Submit for approval' }).count()).toBe(0);
    await expectAccessible(sheet);
  });
});
