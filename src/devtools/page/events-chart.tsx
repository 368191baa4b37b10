/** Events over time: uPlot bars (all events, errors over them), redrawn with setData on change. */
import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { Summary } from './events-model.js';

const HEIGHT = 160;

function colors(el: Element) {
  const css = getComputedStyle(el);
  const v = (name: string, fallback: string) => css.getPropertyValue(name).trim() || fallback;
  return { bar: v('--accent', '#3b82f6'), error: v('--danger', '#dc2626'), axis: v('--dim', '#888'), grid: v('--line', '#ddd') };
}

export function EventsChart({ chart }: { chart: Summary['chart'] }) {
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  useEffect(() => {
    const el = box.current!;
    const c = colors(el);
    const bars = uPlot.paths.bars!({ size: [0.8, 40] });
    const axis = { stroke: c.axis, grid: { stroke: c.grid, width: 1 }, ticks: { stroke: c.grid, width: 1 } };
    plot.current = new uPlot(
      {
        width: el.clientWidth || 600,
        height: HEIGHT,
        legend: { show: false },
        cursor: { drag: { x: false, y: false } },
        scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(1, max)] } },
        axes: [axis, { ...axis, size: 44 }],
        series: [{}, { label: 'events', fill: c.bar, stroke: c.bar, paths: bars }, { label: 'errors', fill: c.error, stroke: c.error, paths: bars }],
      },
      [chart.x, chart.all, chart.errors],
      el,
    );
    const ro = new ResizeObserver(() => plot.current?.setSize({ width: el.clientWidth, height: HEIGHT }));
    ro.observe(el);
    return () => {
      ro.disconnect();
      plot.current?.destroy();
      plot.current = null;
    };
  }, []);
  useEffect(() => {
    plot.current?.setData([chart.x, chart.all, chart.errors]);
  }, [chart]);
  return <div ref={box} class="chart" role="img" aria-label="Events over time" />;
}
