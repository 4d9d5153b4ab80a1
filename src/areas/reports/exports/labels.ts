/** What a column label depends on in a report: its overrides, applied only when enabled. */
export interface Overridable {
  overridesEnabled?: boolean;
  overrides?: Array<{ column: string; label: string }>;
}

/**
 * A column's header: the label of the report's override whose `column` is the column's key (a
 * dimension, a metric or a detailed field's JSON name) when `overridesEnabled`, else its own label.
 * A blank override label keeps the column's own.
 */
export function labeller(report: Overridable): (key: string, own: string) => string {
  if (!report.overridesEnabled || !report.overrides?.length) return (_key, own) => own;
  const labels = new Map(report.overrides.filter((o) => o.label.trim() !== '').map((o) => [o.column, o.label.trim()]));
  return (key, own) => labels.get(key) ?? own;
}
