import { DateTime } from 'luxon';
import type { ReportDefinition } from '../rules.js';

/** The instants a report covers: `[start, end)`, canonical UTC. */
export interface ReportPeriod {
  start: string;
  end: string;
}

const iso = (at: DateTime): string => at.toUTC().toISO()!;

/**
 * The period of a definition when it runs (docs/rules.md §6 Reports): `custom` is its stored `start`
 * and `end`; every other period is resolved at `now` on the calendar of the report's time zone, with
 * ISO weeks (Monday to Monday). Days are calendar days, so a day across a DST change is 23 or 25 hours.
 */
export function resolvePeriod(definition: Pick<ReportDefinition, 'period' | 'start' | 'end'>, zone: string, now: Date = new Date()): ReportPeriod {
  const here = DateTime.fromJSDate(now, { zone });
  const span = (unit: 'day' | 'week' | 'month' | 'year', back: number): ReportPeriod => {
    const start = here.startOf(unit).minus({ [`${unit}s`]: back });
    return { start: iso(start), end: iso(start.plus({ [`${unit}s`]: 1 })) };
  };
  switch (definition.period) {
    case 'today':
      return span('day', 0);
    case 'yesterday':
      return span('day', 1);
    case 'thisWeek':
      return span('week', 0);
    case 'lastWeek':
      return span('week', 1);
    case 'thisMonth':
      return span('month', 0);
    case 'lastMonth':
      return span('month', 1);
    case 'thisYear':
      return span('year', 0);
    case 'lastYear':
      return span('year', 1);
    case 'custom':
      return { start: definition.start, end: definition.end };
  }
}

/** The instants a report can cover: both stores compute calendar dates within them (PostgreSQL knows no year 0). */
const EARLIEST = '0001-01-02T00:00:00.000Z';
const LATEST = '9999-12-30T00:00:00.000Z';

export function clampPeriod(period: ReportPeriod): ReportPeriod {
  const start = period.start < EARLIEST ? EARLIEST : period.start > LATEST ? LATEST : period.start;
  const end = period.end > LATEST ? LATEST : period.end < start ? start : period.end;
  return { start, end };
}
