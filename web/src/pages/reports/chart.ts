import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

/*
 * The report's bar chart, drawn by uPlot on a canvas. Loaded only when a report has a result
 * (ReportChart imports this module), so uPlot adds nothing to the first page's budget.
 */

export interface Bars {
  labels: string[];
  values: number[];
  /** What a bar measures, for the value axis ("Hours", "Revenue (EUR)"). */
  unit: string;
  /** Each bar's own color (a project's), else all in one. */
  colors?: string[];
}

const COLOR = '#0b5cad';
/** uPlot's facet unit for a color per bar (the const enum BarsPathBuilderFacetUnit.Color). */
const COLOR_FACET = 3 as uPlot.Series.BarsPathBuilderFacetUnit;

const HEIGHT = 240;

/** A series whose bars are filled each with its own color: drawn without a stroke, as uPlot needs for that. */
function eachInItsColor(unit: string, colors: string[]): uPlot.Series {
  const disp = { fill: { unit: COLOR_FACET, values: () => colors } };
  return { label: unit, width: 0, fill: COLOR, paths: uPlot.paths.bars!({ size: [0.7, 80], disp }), points: { show: false } };
}

/** Draws the bars into `target`, sized to its width; answers the function that removes them. */
export function drawBars(target: HTMLElement, bars: Bars): () => void {
  const x = bars.labels.map((_, i) => i);
  const width = () => Math.max(240, target.clientWidth);
  const chart = new uPlot(
    {
      width: width(),
      height: HEIGHT,
      legend: { show: false },
      cursor: { show: false },
      scales: { x: { time: false, range: [-0.5, Math.max(0.5, bars.labels.length - 0.5)] }, y: { range: (_u, _min, max) => [0, max > 0 ? max * 1.1 : 1] } },
      axes: [
        {
          splits: () => x,
          values: (_u, splits) => splits.map((i) => bars.labels[i] ?? ''),
          rotate: bars.labels.length > 6 ? -45 : 0,
          size: bars.labels.length > 6 ? 80 : 40,
        },
        { label: bars.unit },
      ],
      series: [{}, bars.colors ? eachInItsColor(bars.unit, bars.colors) : { label: bars.unit, fill: COLOR, stroke: COLOR, paths: uPlot.paths.bars!({ size: [0.7, 80] }), points: { show: false } }],
    },
    [x, bars.values],
    target,
  );
  const resize = new ResizeObserver(() => chart.setSize({ width: width(), height: HEIGHT }));
  resize.observe(target);
  return () => {
    resize.disconnect();
    chart.destroy();
  };
}
