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
}

const HEIGHT = 240;

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
      series: [{}, { label: bars.unit, fill: '#0b5cad', stroke: '#0b5cad', paths: uPlot.paths.bars!({ size: [0.7, 80] }), points: { show: false } }],
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
