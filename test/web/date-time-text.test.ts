import { describe, expect, it } from 'vitest';
import { dateHint, dateText, parseDateText, parseTimeText, timeHint, timeText, uses24HourClock } from '../../web/src/lib/fields.js';

/* Date and time fields as text (issue 37, defect 12): shown and read in the person's locale and clock. */

describe('Web app: date and time text', () => {
  it('a time shows on the person\'s clock: "13:05" on 24 hours, "1:05 PM" on 12, whatever the locale\'s habit', () => {
    expect(timeText('13:05', 'de', true)).toBe('13:05');
    expect(timeText('08:00', 'en-GB', true)).toBe('08:00');
    expect(timeText('13:05', 'en-US', false)).toBe('1:05 PM');
    expect(timeText('00:30', 'en-US', false)).toBe('12:30 AM');
    expect(timeText('13:05', 'en-US', true)).toBe('13:05');
    expect(timeText('13:05', 'de', false)).toMatch(/^1:05\sPM$/);
    expect(timeHint(true)).toBe('HH:MM');
    expect(timeHint(false)).toBe('H:MM AM');
  });

  it('the clock is the preference when set, else the locale\'s', () => {
    expect(uses24HourClock('de')).toBe(true);
    expect(uses24HourClock('en-US')).toBe(false);
    expect(uses24HourClock('en-US', true)).toBe(true);
    expect(uses24HourClock('de', false)).toBe(false);
  });

  it('a typed time is read as 24-hour "HH:MM" from "13:05", "1305", "1:05 PM", "1:05pm", "2:30 pm", "9", "12 am"', () => {
    const read = { '13:05': '13:05', '1305': '13:05', '13.05': '13:05', '1:05 PM': '13:05', '1:05pm': '13:05', '2:30 pm': '14:30', ' 9 ': '09:00', '12 am': '00:00', '12:15 PM': '12:15', '7:45 a.m.': '07:45', '0:00': '00:00', '23:59': '23:59' };
    for (const [text, value] of Object.entries(read)) expect([text, parseTimeText(text)]).toEqual([text, value]);
  });

  it('text that is no time is not read: "25:00", "12:60", "13:05 PM", "0 am", "noon", "1:5", ""', () => {
    for (const text of ['25:00', '12:60', '13:05 PM', '0 am', 'noon', '1:5', '', '12345', '1:05 xm']) expect([text, parseTimeText(text)]).toEqual([text, null]);
  });

  it('a day shows in the locale\'s order with the year in full: de "07.12.2026", en-GB "07/12/2026", en-US "12/7/2026"', () => {
    expect(dateText('2026-12-07', 'de')).toBe('07.12.2026');
    expect(dateText('2026-12-07', 'en-GB')).toBe('07/12/2026');
    expect(dateText('2026-12-07', 'en-US')).toBe('12/7/2026');
    expect(dateHint('de')).toBe('DD.MM.YYYY');
    expect(dateHint('en-GB')).toBe('DD/MM/YYYY');
    expect(dateHint('en-US')).toBe('MM/DD/YYYY');
  });

  it('a typed day is read in the locale\'s order, or as ISO; a two-digit year is this century\'s', () => {
    expect(parseDateText('07.12.2026', 'de')).toBe('2026-12-07');
    expect(parseDateText('7.12.26', 'de')).toBe('2026-12-07');
    expect(parseDateText('07/12/2026', 'en-GB')).toBe('2026-12-07');
    expect(parseDateText('12/7/2026', 'en-US')).toBe('2026-12-07');
    expect(parseDateText('2026-12-07', 'en-US')).toBe('2026-12-07');
    expect(parseDateText(' 2026-12-07 ', 'de')).toBe('2026-12-07');
  });

  it('text that is no day is not read: no such day, a wrong order, too few parts, letters', () => {
    for (const [text, locale] of [['31.02.2026', 'de'], ['12/31/2026', 'en-GB'], ['31/12/2026', 'en-US'], ['07.12', 'de'], ['tomorrow', 'de'], ['2026-13-01', 'de'], ['07.12.202', 'de'], ['']]) {
      expect([text, parseDateText(text, locale ?? 'de')]).toEqual([text, null]);
    }
  });
});
