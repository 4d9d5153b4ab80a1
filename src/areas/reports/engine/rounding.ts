/** The rounding of each entry's duration before summing (docs/rules.md §6 Reports). */
export interface Rounding {
  enabled: boolean;
  /** Minutes, 1–1440. */
  interval: number;
  mode: 'NEAREST' | 'UP' | 'DOWN';
}

/** An organization without a rounding of its own. */
export const NO_ROUNDING: Rounding = { enabled: false, interval: 15, mode: 'NEAREST' };

/**
 * An entry's duration in whole seconds (milliseconds dropped), rounded to the interval: DOWN to the
 * multiple at or below, UP to the multiple at or above, NEAREST to the closer one with a half interval
 * going up (7 min 30 s at 15 minutes is 15 minutes). The selection's SQL computes the same
 * (roundedSecondsSql, entries-repository.ts); this is its definition in one line per mode.
 */
export function roundSeconds(seconds: number, rounding: Rounding): number {
  if (!rounding.enabled) return seconds;
  const step = rounding.interval * 60;
  switch (rounding.mode) {
    case 'DOWN':
      return Math.floor(seconds / step) * step;
    case 'UP':
      return Math.ceil(seconds / step) * step;
    case 'NEAREST':
      return Math.floor((seconds + step / 2) / step) * step;
  }
}
