import type { Preferences } from '../api/client.js';

/*
 * Every date, time and duration the app shows goes through these, driven by the person's
 * preferences (locale, time zone, 12/24-hour clock, duration format); Intl does the formatting.
 */

export interface Formats {
  locale: string;
  timeZone: string;
  time(instant: Date | string | number): string;
  /** A calendar day (see lib/time.ts): "Monday, 2 March" or "02/03/2026". */
  day(day: Date): string;
  /** A short day for a column head: "Mon 2". */
  shortDay(day: Date): string;
  /** A span of days: "23 – 29 Nov 2026". */
  dayRange(first: Date, last: Date): string;
  /** A date and time: "2 Mar 2026, 14:05". */
  dateTime(instant: Date | string | number): string;
  /** A length of time; `running` shows seconds too (a running timer ticks). */
  duration(ms: number, running?: boolean): string;
}

interface DurationFormatLike {
  format(duration: { hours: number; minutes: number; seconds?: number }): string;
}
type DurationFormatConstructor = new (locale: string, options: Record<string, string>) => DurationFormatLike;

export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

export function makeFormats(preferences: Preferences | null): Formats {
  const locale = preferences?.locale || navigator.language || 'en';
  const timeZone = preferences?.timeZone || browserTimeZone();
  const clock = preferences?.dateTimeFormat ?? {};
  const hourCycle = clock.clock24Hour === undefined ? undefined : clock.clock24Hour ? 'h23' : 'h12';
  const seconds = clock.showSeconds ? { second: '2-digit' as const } : {};
  const time = new Intl.DateTimeFormat(locale, { timeZone, hour: 'numeric', minute: '2-digit', ...seconds, ...(hourCycle ? { hourCycle } : {}) });
  const dateTime = new Intl.DateTimeFormat(locale, {
    timeZone,
    dateStyle: clock.numeric ? 'short' : 'medium',
    timeStyle: clock.showSeconds ? 'medium' : 'short',
    ...(hourCycle ? { hourCycle } : {}),
  });
  // Days are plain dates held at 00:00 UTC: formatted in UTC, whatever the person's zone.
  const day = new Intl.DateTimeFormat(locale, clock.numeric ? { timeZone: 'UTC', dateStyle: 'short' } : { timeZone: 'UTC', weekday: 'long', day: 'numeric', month: 'long' });
  const range = new Intl.DateTimeFormat(locale, { timeZone: 'UTC', day: 'numeric', month: 'short', year: 'numeric' });
  const shortDay = new Intl.DateTimeFormat(locale, { timeZone: 'UTC', weekday: 'short', day: 'numeric' });

  const durationPrefs = preferences?.durationFormat ?? {};
  const mode = durationPrefs.mode ?? 'HOURS_MINUTES';
  const showSeconds = mode === 'HOURS_MINUTES_SECONDS' || durationPrefs.showSeconds === true;
  const decimal = new Intl.NumberFormat(locale, { style: 'unit', unit: 'hour', unitDisplay: durationPrefs.compact ? 'narrow' : 'short', minimumFractionDigits: 2, maximumFractionDigits: 2 });
  const DurationFormat = (Intl as unknown as { DurationFormat?: DurationFormatConstructor }).DurationFormat;
  const durationFormat = (seconds: boolean) =>
    DurationFormat
      ? new DurationFormat(locale, {
          style: durationPrefs.compact ? 'narrow' : 'digital',
          hoursDisplay: 'always',
          minutesDisplay: 'always',
          secondsDisplay: seconds ? 'always' : 'auto',
        })
      : null;
  const clockDuration = durationFormat(false);
  const clockDurationWithSeconds = durationFormat(true);
  const twoDigits = new Intl.NumberFormat(locale, { minimumIntegerDigits: 2, useGrouping: false });
  const whole = new Intl.NumberFormat(locale, { useGrouping: false });

  const duration = (ms: number, running = false): string => {
    const totalSeconds = Math.max(0, Math.floor(ms / 1000));
    if (mode === 'DECIMAL' && !running) return decimal.format(totalSeconds / 3600);
    const hours = Math.floor(totalSeconds / 3600);
    const minutes = Math.floor((totalSeconds % 3600) / 60);
    const secs = totalSeconds % 60;
    const withSeconds = showSeconds || running;
    if (withSeconds && clockDurationWithSeconds) return clockDurationWithSeconds.format({ hours, minutes, seconds: secs });
    if (!withSeconds && clockDuration) return clockDuration.format({ hours, minutes });
    const text = `${whole.format(hours)}:${twoDigits.format(minutes)}`;
    return withSeconds ? `${text}:${twoDigits.format(secs)}` : text;
  };

  return {
    locale,
    timeZone,
    time: (instant) => time.format(new Date(instant)),
    day: (d) => day.format(d),
    shortDay: (d) => shortDay.format(d),
    dayRange: (first, last) => range.formatRange(first, last),
    dateTime: (instant) => dateTime.format(new Date(instant)),
    duration,
  };
}
