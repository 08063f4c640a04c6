export interface Bar {
  label: string;
  value: number;
  /** The value as the reader sees it: `94.3%`, `71.1 ms`. */
  text: string;
}

// Drawn in viewBox units; the SVG scales to its box, so these are proportions, not pixels.
const WIDTH = 400;
const LABEL_WIDTH = 140;
const VALUE_WIDTH = 66;
const ROW = 24;
const BAR = 16;

/**
 * Horizontal bars as inline SVG: a label, the bar and its value as text on each row. The SVG is
 * one image to assistive technology, named by the title and every value, so nothing drawn is
 * lost to a screen reader. `max` is the scale's end (1 for rates); bars never overflow it.
 */
export function BarChart({ title, bars, max }: { title: string; bars: Bar[]; max: number }) {
  const height = bars.length * ROW + 4;
  const scale = WIDTH - LABEL_WIDTH - VALUE_WIDTH;
  const label = `${title}: ${bars.map((bar) => `${bar.label} ${bar.text}`).join(', ')}`;
  return (
    <figure className="bar-chart">
      <figcaption>{title}</figcaption>
      <svg viewBox={`0 0 ${WIDTH} ${height}`} role="img" aria-label={label}>
        <title>{label}</title>
        {bars.map((bar, index) => {
          const y = index * ROW + 2;
          const width = max > 0 ? (Math.min(Math.max(bar.value, 0), max) / max) * scale : 0;
          return (
            <g key={bar.label}>
              <text x={LABEL_WIDTH - 6} y={y + BAR - 3} textAnchor="end">
                {bar.label}
              </text>
              <rect className="track" x={LABEL_WIDTH} y={y} width={scale} height={BAR} />
              <rect className="bar" x={LABEL_WIDTH} y={y} width={width} height={BAR} />
              <text x={LABEL_WIDTH + scale + 4} y={y + BAR - 3}>
                {bar.text}
              </text>
            </g>
          );
        })}
      </svg>
    </figure>
  );
}
