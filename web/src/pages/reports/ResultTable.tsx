import { formats } from '../../data/preferences.js';
import { projects } from '../../data/projects.js';
import { Swatch } from '../manage/Swatch.js';
import { currenciesOf, DIMENSIONS, METRICS, TIME_DIMENSIONS, type ReportResult, type ResultRow } from './definition.js';

type Money = 'revenue' | 'cost' | 'profit';
const MONEY: Money[] = ['revenue', 'cost', 'profit'];

/** An amount in its currency, with the currency's own decimals. */
export function money(amount: number, currency: string): string {
  try {
    return new Intl.NumberFormat(formats.value.locale, { style: 'currency', currency }).format(amount);
  } catch {
    return `${amount} ${currency}`;
  }
}

function Cells({ row, result, currencies }: { row: ResultRow; result: ReportResult; currencies: Record<Money, string[]> }) {
  const f = formats.value;
  const unpriced = row.unpricedBillableTime ?? 0;
  const uncosted = row.uncostedTime ?? 0;
  return (
    <>
      <td class="num">{row.entries}</td>
      {result.metrics.includes('time') && <td class="num">{f.duration((row.time ?? 0) * 1000)}</td>}
      {result.metrics.includes('billableTime') && <td class="num">{f.duration((row.billableTime ?? 0) * 1000)}</td>}
      {MONEY.filter((metric) => result.metrics.includes(metric)).flatMap((metric) =>
        (currencies[metric].length ? currencies[metric] : ['']).map((currency, i) => (
          <td class="num" key={`${metric}-${currency}`}>
            {currency ? money(row[metric]?.[currency] ?? 0, currency) : '—'}
            {i === 0 && metric !== 'cost' && unpriced > 0 && (
              <span class="unpriced">
                <span aria-hidden="true">⚠ </span>
                {f.duration(unpriced * 1000)} unpriced
              </span>
            )}
            {i === 0 && metric !== 'revenue' && uncosted > 0 && <span class="unpriced">{f.duration(uncosted * 1000)} without a cost rate</span>}
          </td>
        )),
      )}
    </>
  );
}

/** The rows of the tree in order, each with its depth (the dimension it belongs to). */
function flatten(rows: ResultRow[], depth = 0, path = ''): { row: ResultRow; depth: number; id: string }[] {
  return rows.flatMap((row, i) => {
    const id = `${path}/${row.key ?? 'none'}-${i}`;
    return [{ row, depth, id }, ...flatten(row.rows ?? [], depth + 1, id)];
  });
}

/**
 * The grouped table: a column per dimension (a row's label under its own), then the metrics (money
 * one column per currency); a group's row carries its subtotal, the foot the report's totals.
 */
export function ResultTable({ result }: { result: ReportResult }) {
  const currencies = currenciesOf(result);
  const dims = result.dimensions;
  const totals = result.totals as ResultRow;
  const rows = flatten(result.rows as ResultRow[]);
  const withheld = totals.revenueWithheldTime ?? 0;
  return (
    <>
      {/* Focusable: on a narrow screen the table scrolls sideways, and the keyboard must be able to scroll it. */}
      <div class="table-wrap" tabIndex={0} role="region" aria-labelledby="report-table-caption">
        <table class="table report-table" aria-labelledby="report-table-caption">
          <caption id="report-table-caption" class="visually-hidden">
            The report, grouped by {dims.map((d) => DIMENSIONS[d].toLowerCase()).join(', then ')}
          </caption>
          <thead>
            <tr>
              {dims.map((d) => (
                <th scope="col" key={d}>
                  {DIMENSIONS[d]}
                </th>
              ))}
              <th scope="col" class="num">
                Entries
              </th>
              {result.metrics.includes('time') && (
                <th scope="col" class="num">
                  {METRICS.time}
                </th>
              )}
              {result.metrics.includes('billableTime') && (
                <th scope="col" class="num">
                  {METRICS.billableTime}
                </th>
              )}
              {MONEY.filter((metric) => result.metrics.includes(metric)).flatMap((metric) =>
                (currencies[metric].length ? currencies[metric] : ['']).map((currency) => (
                  <th scope="col" class="num" key={`${metric}-${currency}`}>
                    {METRICS[metric]}
                    {currency && ` (${currency})`}
                  </th>
                )),
              )}
            </tr>
          </thead>
          <tbody>
            {rows.length === 0 && (
              <tr>
                <td colSpan={dims.length + 1 + result.metrics.length}>No entries in this period.</td>
              </tr>
            )}
            {rows.map(({ row, depth, id }) => (
              <tr key={id} class={row.rows ? 'group' : undefined}>
                {dims.map((d, i) =>
                  i === depth ? (
                    <th scope="row" key={d}>
                      {d === 'project' && row.key && projects.value[row.key] && <Swatch color={projects.value[row.key].color} />}{' '}
                      {row.key === null && !TIME_DIMENSIONS.has(d) ? <span class="muted">{row.label}</span> : row.label}
                    </th>
                  ) : (
                    <td key={d} />
                  ),
                )}
                <Cells row={row} result={result} currencies={currencies} />
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr data-testid="report-totals">
              <th scope="row" colSpan={dims.length}>
                Total
              </th>
              <Cells row={totals} result={result} currencies={currencies} />
            </tr>
          </tfoot>
        </table>
      </div>
      {withheld > 0 && (
        <p class="muted">
          {formats.value.duration(withheld * 1000)} of billable time is on projects whose revenue you do not see; it is left out of revenue.
        </p>
      )}
      {(totals.unpricedBillableTime ?? 0) > 0 && (
        <p class="unpriced-note">
          <span aria-hidden="true">⚠ </span>
          {formats.value.duration((totals.unpricedBillableTime ?? 0) * 1000)} of billable time has no revenue rate in force: it earns nothing here. Give the members a revenue
          rate on the Projects page.
        </p>
      )}
    </>
  );
}
