import { expect, it } from 'vitest';
import { make } from '../support/factories/index.js';
import { describeInBrowser, expectAccessible, screenshot } from './manage-browser.js';
import { settled, thisWeekAt, trackWorld, type TrackWorld } from './track-world.js';

/* Entry date and time fields on Track follow the person's locale and clock, not the browser's (issue 37, defect 12). */

const prefer = async (t: TrackWorld, body: Record<string, unknown>) => {
  expect((await t.asUma.put(`/api/users/${t.uma.userId}/preferences`, body)).status).toBe(200);
};

/** The instant of a wall-clock time on a UTC day (an ISO instant's date) in a time zone. */
function zoned(dayOf: string, hh: number, mm: number, timeZone: string): string {
  const wall = Date.UTC(Number(dayOf.slice(0, 4)), Number(dayOf.slice(5, 7)) - 1, Number(dayOf.slice(8, 10)), hh, mm);
  const offset = new Intl.DateTimeFormat('en', { timeZone, timeZoneName: 'longOffset' }).formatToParts(new Date(wall)).find((p) => p.type === 'timeZoneName')!.value;
  const [, sign, h, m] = /GMT([+-])(\d{2}):(\d{2})/.exec(offset) ?? ['', '+', '00', '00'];
  return new Date(wall - (sign === '-' ? -1 : 1) * (Number(h) * 60 + Number(m)) * 60_000).toISOString();
}

describeInBrowser('Web app: date and time fields in the person\'s locale and clock', ({ h, open }) => {
  it('a German 24-hour person sees and types "13:05" and "07.12.2026"-style dates; the API holds 13:05 in their time zone', async () => {
    const t = await trackWorld(h);
    await prefer(t, { locale: 'de', timeZone: 'Europe/Berlin', dateTimeFormat: { clock24Hour: true } });
    const entry = await make.activity(h, t.ws, { owner: t.uma, name: 'Planung', project: t.projects.internal, startedAt: thisWeekAt(0, 6), endedAt: thisWeekAt(0, 15) });
    const page = await open(t.ws, t.uma, '/');
    const day = page.locator(`#entry-${entry.id}-day`);
    const start = page.locator(`#entry-${entry.id}-start`);
    const monday = thisWeekAt(0, 0);
    const [yyyy, mm, dd] = [monday.slice(0, 4), monday.slice(5, 7), monday.slice(8, 10)];

    await settled(() => day.inputValue()).toBe(`${dd}.${mm}.${yyyy}`);
    expect(await day.getAttribute('placeholder')).toBe('DD.MM.YYYY');
    expect(await start.getAttribute('placeholder')).toBe('HH:MM');
    expect(await start.getAttribute('type')).toBe('text');
    expect(await start.inputValue()).toBe(new Intl.DateTimeFormat('de', { timeZone: 'Europe/Berlin', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date(thisWeekAt(0, 6))));

    await start.fill('13:05');
    await start.press('Enter');
    await settled(async () => (await t.activity(entry.id)).startedAt).toBe(zoned(monday, 13, 5, 'Europe/Berlin'));
    await settled(() => start.inputValue()).toBe('13:05');
    expect((await t.activity(entry.id)).endedAt).toBe(thisWeekAt(0, 15));
    await expectAccessible(page);
    await screenshot(page, 'locale-fields-de', h);
  });

  it('an en-US 12-hour person sees "1:05 PM", types "2:30 pm", and an unreadable time is refused inline with nothing saved', async () => {
    const t = await trackWorld(h);
    await prefer(t, { locale: 'en-US', timeZone: 'UTC', dateTimeFormat: { clock24Hour: false } });
    const entry = await make.activity(h, t.ws, { owner: t.uma, name: 'Planning', project: t.projects.internal, startedAt: thisWeekAt(0, 13, 5), endedAt: thisWeekAt(0, 17) });
    const page = await open(t.ws, t.uma, '/');
    const row = page.getByTestId('entry');
    const day = page.locator(`#entry-${entry.id}-day`);
    const start = page.locator(`#entry-${entry.id}-start`);
    const end = page.locator(`#entry-${entry.id}-end`);
    const monday = thisWeekAt(0, 0);

    await settled(() => start.inputValue()).toBe('1:05 PM');
    expect(await end.inputValue()).toBe('5:00 PM');
    expect(await start.getAttribute('placeholder')).toBe('H:MM AM');
    expect(await day.inputValue()).toBe(`${Number(monday.slice(5, 7))}/${Number(monday.slice(8, 10))}/${monday.slice(0, 4)}`);
    expect(await day.getAttribute('placeholder')).toBe('MM/DD/YYYY');

    await start.fill('2:30 pm');
    await start.press('Enter');
    await settled(async () => (await t.activity(entry.id)).startedAt).toBe(thisWeekAt(0, 14, 30));
    await settled(() => start.inputValue()).toBe('2:30 PM');

    const saved = await t.activity(entry.id);
    await end.fill('25:61');
    await end.press('Enter');
    const refusal = row.getByRole('alert').getByText('“25:61” is not a time: type it as 1:05 PM.');
    await refusal.waitFor();
    expect(await end.inputValue()).toBe('25:61');
    expect(await end.getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator(`[id="${await end.getAttribute('aria-describedby')}"]`).textContent()).toBe('“25:61” is not a time: type it as 1:05 PM.');
    await day.fill('31/12/2026');
    await day.press('Tab');
    await row.getByRole('alert').getByText('“31/12/2026” is not a date: type it as 12/7/2026.').waitFor();
    expect(await t.activity(entry.id)).toEqual(saved);
    await expectAccessible(page);

    // Typed again readably, it is saved and the refusal goes.
    await end.fill('1805');
    await end.press('Enter');
    await settled(async () => (await t.activity(entry.id)).endedAt).toBe(thisWeekAt(0, 18, 5));
    await settled(() => end.inputValue()).toBe('6:05 PM');
    expect(await refusal.count()).toBe(0);
  });
});
