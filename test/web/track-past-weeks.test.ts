import { expect, it } from 'vitest';
import { make } from '../support/factories/index.js';
import { as } from '../support/harness.js';
import { describeInBrowser, expectAccessible, screenshot } from './manage-browser.js';
import { settled, thisWeekAt, trackWorld, type TrackWorld } from './track-world.js';

/* Time added after the fact on Track: any past week, the week in the address, a manual entry (issue 37). */

const prefer = async (t: TrackWorld, body: Record<string, unknown>) => {
  expect((await t.asUma.put(`/api/users/${t.uma.userId}/preferences`, body)).status).toBe(200);
};

/** The instant of a wall-clock time on a day (`YYYY-MM-DD`) in a time zone. */
function zoned(day: string, hh: number, mm: number, timeZone: string): string {
  const wall = Date.UTC(Number(day.slice(0, 4)), Number(day.slice(5, 7)) - 1, Number(day.slice(8, 10)), hh, mm);
  const offset = new Intl.DateTimeFormat('en', { timeZone, timeZoneName: 'longOffset' }).formatToParts(new Date(wall)).find((p) => p.type === 'timeZoneName')!.value;
  const [, sign, h, m] = /GMT([+-])(\d{2}):(\d{2})/.exec(offset) ?? ['', '+', '00', '00'];
  return new Date(wall - (sign === '-' ? -1 : 1) * (Number(h) * 60 + Number(m)) * 60_000).toISOString();
}

/** The ISO week of a day (`YYYY-MM-DD`). */
function isoWeekOf(day: string): { year: number; week: number } {
  const date = new Date(`${day}T00:00:00Z`);
  const thursday = new Date(date.getTime() + (3 - ((date.getUTCDay() + 6) % 7)) * 86_400_000);
  const year = thursday.getUTCFullYear();
  const week = 1 + Math.floor((thursday.getTime() - Date.UTC(year, 0, 1)) / (7 * 86_400_000));
  return { year, week };
}

const BERLIN = 'Europe/Berlin';
/** The day `days` after this week's Monday, `YYYY-MM-DD`. */
const dayAt = (days: number) => thisWeekAt(days, 12).slice(0, 10);
/** en-GB's date: "07/12/2026". */
const british = (day: string) => `${day.slice(8, 10)}/${day.slice(5, 7)}/${day.slice(0, 4)}`;

describeInBrowser('Web app: past weeks and time added by hand on Track', ({ h, open }) => {
  it('two weeks back by the control, the week in the address (kept by reload, back and forward), its entries by day edited in place, and time added by start–end and by duration lands at those times of the person\'s zone', async () => {
    const t = await trackWorld(h);
    await prefer(t, { locale: 'en-GB', timeZone: BERLIN, dateTimeFormat: { clock24Hour: true } });
    const tuesday = dayAt(-13);
    const wednesday = dayAt(-12);
    const { year, week } = isoWeekOf(dayAt(-14));
    const weekParam = `${year}-W${String(week).padStart(2, '0')}`;
    const audit = await make.activity(h, t.ws, { owner: t.uma, name: 'Audit', project: t.projects.internal, startedAt: zoned(tuesday, 9, 0, BERLIN), endedAt: zoned(tuesday, 10, 30, BERLIN) });
    await make.activity(h, t.ws, { owner: t.uma, name: 'Today', project: t.projects.internal, startedAt: thisWeekAt(0, 9), endedAt: thisWeekAt(0, 10) });
    const page = await open(t.ws, t.uma, '/');
    const weekNav = page.getByRole('navigation', { name: 'Week' });
    await page.getByRole('heading', { name: /^This week/ }).waitFor();

    await weekNav.getByRole('button', { name: 'Previous week' }).click();
    await weekNav.getByRole('button', { name: 'Previous week' }).click();
    const heading = page.getByRole('heading', { name: new RegExp(`^Week ${week} of ${year}`) });
    await heading.waitFor();
    expect(new URL(page.url()).search).toBe(`?week=${weekParam}`);
    await page.reload();
    await heading.waitFor();
    expect(new URL(page.url()).search).toBe(`?week=${weekParam}`);
    const row = page.getByTestId('entry');
    await settled(() => row.count()).toBe(1);
    expect(await page.locator(`#entry-${audit.id}-name`).inputValue()).toBe('Audit');
    expect(await page.locator(`#entry-${audit.id}-start`).inputValue()).toBe('09:00');
    const lastWeek = isoWeekOf(dayAt(-7));
    await page.goBack();
    await page.getByRole('heading', { name: new RegExp(`^Week ${lastWeek.week} of ${lastWeek.year}`) }).waitFor();
    await page.goForward();
    await heading.waitFor();
    expect(new URL(page.url()).search).toBe(`?week=${weekParam}`);

    // Edited in place, as this week's entries are.
    const end = page.locator(`#entry-${audit.id}-end`);
    await end.fill('11:00');
    await end.press('Enter');
    await settled(async () => (await t.activity(audit.id)).endedAt).toBe(zoned(tuesday, 11, 0, BERLIN));
    await settled(() => page.getByRole('heading', { level: 3 }).first().locator('.total').textContent()).toBe('2:00');

    // Added by start and end: the date defaults to the week's Monday, the start to the end of that day's last entry.
    await page.getByText('Add time', { exact: true }).click();
    const form = page.getByRole('form', { name: 'Add time' });
    const date = form.getByLabel('Date', { exact: true });
    expect(await date.inputValue()).toBe(british(dayAt(-14)));
    expect(await form.getByLabel('Start', { exact: true }).inputValue()).toBe('09:00');
    await date.fill(british(tuesday));
    await date.press('Tab');
    expect(await form.getByLabel('Start', { exact: true }).inputValue()).toBe('11:00');
    await form.getByLabel('What did you work on?').fill('Workshop');
    const project = form.getByLabel('Project', { exact: true });
    await project.fill('Website');
    await project.press('Enter');
    const endField = form.getByLabel('End', { exact: true });
    await endField.fill('12:15');
    await endField.press('Tab');
    await form.getByRole('button', { name: 'Add' }).click();
    await form.getByRole('status').getByText('Added “Workshop”.').waitFor();
    const named = async (name: string) => {
      const found = (await t.activities()).find((a) => a.name === name);
      return found && { startedAt: found.startedAt, endedAt: found.endedAt, projectId: found.projectId, billable: found.billable };
    };
    expect(await named('Workshop')).toEqual({ startedAt: zoned(tuesday, 11, 0, BERLIN), endedAt: zoned(tuesday, 12, 15, BERLIN), projectId: t.projects.website.id, billable: true });

    // Added by a duration, "1.5" as a timesheet cell reads it: a day without entries starts at 09:00; the project stays picked.
    await date.fill(british(wednesday));
    await date.press('Tab');
    expect(await form.getByLabel('Start', { exact: true }).inputValue()).toBe('09:00');
    await form.getByLabel('What did you work on?').fill('Review');
    await form.getByLabel('or duration').fill('1.5');
    await form.getByRole('button', { name: 'Add' }).click();
    await form.getByRole('status').getByText('Added “Review”.').waitFor();
    expect(await named('Review')).toEqual({ startedAt: zoned(wednesday, 9, 0, BERLIN), endedAt: zoned(wednesday, 10, 30, BERLIN), projectId: t.projects.website.id, billable: true });
    await settled(() => row.count()).toBe(3);
    await settled(() => page.locator('.week-total span').textContent()).toBe('4:45');
    await expectAccessible(page);
    await screenshot(page, 'track-past-week', h);
  });

  it('a duration that cannot be read is refused at the field, and nothing is sent', async () => {
    const t = await trackWorld(h);
    const page = await open(t.ws, t.uma, '/');
    await page.getByText('Add time', { exact: true }).click();
    const form = page.getByRole('form', { name: 'Add time' });
    await form.getByLabel('What did you work on?').fill('Call');
    await form.getByLabel('or duration').fill('soon');
    await form.getByRole('button', { name: 'Add' }).click();
    await form.getByText('“soon” is not a duration: type it as 1:30 or 1.5.').waitFor();
    expect(await form.getByLabel('or duration').getAttribute('aria-invalid')).toBe('true');
    await form.getByRole('button', { name: 'Add' }).click();
    expect(await t.activities()).toEqual([]);
    await expectAccessible(page);
  });

  it('a locked past week, opened by its address, refuses time added to it and its entries\' changes in words naming the week', async () => {
    const t = await trackWorld(h);
    const monday = dayAt(-21);
    const { year, week } = isoWeekOf(monday);
    const weekParam = `${year}-W${String(week).padStart(2, '0')}`;
    const entry = await make.activity(h, t.ws, { owner: t.uma, name: 'Planning', project: t.projects.internal, startedAt: thisWeekAt(-21, 9), endedAt: thisWeekAt(-21, 10) });
    expect((await as(h, t.ws).post('/api/timesheets/lock', { userId: t.uma.userId, year, week })).status).toBe(200);
    const page = await open(t.ws, t.uma, `/?week=${weekParam}`);
    await page.getByRole('heading', { name: new RegExp(`^Week ${week} of ${year}`) }).waitFor();
    await settled(() => page.locator(`#entry-${entry.id}-name`).inputValue()).toBe('Planning');

    await page.getByText('Add time', { exact: true }).click();
    const form = page.getByRole('form', { name: 'Add time' });
    await form.getByLabel('What did you work on?').fill('Late notes');
    await form.getByLabel('or duration').fill('1:30');
    await form.getByRole('button', { name: 'Add' }).click();
    await form.getByRole('alert').getByText(`Week ${week} of ${year} is locked: the entry was not saved.`).waitFor();
    expect((await t.activities()).map((a) => a.name)).toEqual(['Planning']);
    // The refusal tells the page the week is locked: its notice shows, its entries are read-only.
    await page.getByText(`Week ${week} of ${year} is locked: its entries are read-only.`).waitFor();
    expect(await page.locator(`#entry-${entry.id}-name`).getAttribute('readonly')).not.toBeNull();
    await expectAccessible(page);
  });
});
