import { useEffect, useRef, useState } from 'preact/hooks';
import { formats } from '../../data/preferences.js';
import { projects } from '../../data/projects.js';
import type { Bars } from './chart.js';
import { DIMENSIONS, METRICS, TIME_DIMENSIONS, type ReportResult, type ResultRow } from './definition.js';

/** The bars' color when they are not projects, and the color of "No project". */
const BAR = '#0b5cad';
const NO_PROJECT_BAR = '#8a939d';

/** Projects' rows are drawn in each project's color; other rows in one color. */
function colorsOf(result: ReportResult, rows: ResultRow[]): string[] | undefined {
  if (result.dimensions[0] !== 'project') return undefined;
  return rows.map((row) => (row.key ? (projects.value[row.key]?.color ?? BAR) : NO_PROJECT_BAR));
}

/** What the chart shows: the top rows (the first dimension) by time, else billable time, else the first money metric's first currency. */
export function barsOf(result: ReportResult): (Bars & { title: string }) | null {
  const rows = result.rows as ResultRow[];
  if (rows.length === 0) return null;
  const colors = colorsOf(result, rows);
  const by = DIMENSIONS[result.dimensions[0]].toLowerCase();
  const over = TIME_DIMENSIONS.has(result.dimensions[0]) ? `over ${by}s` : `by ${by}`;
  for (const metric of ['time', 'billableTime'] as const) {
    if (result.metrics.includes(metric)) {
      return { title: `${METRICS[metric]} ${over}, in hours`, unit: 'Hours', labels: rows.map((row) => row.label), values: rows.map((row) => (row[metric] ?? 0) / 3600), colors };
    }
  }
  for (const metric of ['revenue', 'cost', 'profit'] as const) {
    const currency = Object.keys((result.totals as ResultRow)[metric] ?? {}).sort()[0];
    if (result.metrics.includes(metric) && currency) {
      const unit = `${METRICS[metric]} (${currency})`;
      return { title: `${unit} ${over}`, unit, labels: rows.map((row) => row.label), values: rows.map((row) => row[metric]?.[currency] ?? 0), colors };
    }
  }
  return null;
}

/**
 * The bar chart above the table, its code fetched when first needed. It is an image to assistive
 * technology, named by what it shows; the table below holds the same figures.
 */
export function ReportChart({ result }: { result: ReportResult }) {
  const target = useRef<HTMLDivElement>(null);
  const [failed, setFailed] = useState(false);
  const bars = barsOf(result);
  useEffect(() => {
    if (!bars || !target.current) return;
    let remove: (() => void) | null = null;
    let gone = false;
    import('./chart.js')
      .then(({ drawBars }) => {
        if (!gone && target.current) remove = drawBars(target.current, bars);
      })
      .catch(() => setFailed(true));
    return () => {
      gone = true;
      remove?.();
    };
  }, [result, formats.value, projects.value]);
  if (!bars) return null;
  return (
    <figure class="report-chart">
      <figcaption id="report-chart-caption">{bars.title}</figcaption>
      {failed ? (
        <p class="error" role="alert">
          The chart could not be loaded; the table below holds the figures.
        </p>
      ) : (
        <div ref={target} role="img" aria-label={`Bar chart: ${bars.title}. The table below holds the same figures.`} data-testid="report-chart" />
      )}
    </figure>
  );
}
