import { useId } from "react";

export interface ChartLine {
  label: string;
  values: readonly number[];
  /** Tailwind stroke classes (light and dark). */
  strokeClass: string;
  /** A dash pattern, so lines differ by more than colour. */
  dash?: string;
}

const WIDTH = 720;
const HEIGHT = 220;
const PAD = { top: 12, right: 12, bottom: 28, left: 44 };

/** A round upper bound for the y axis: 1, 2, 5 × 10ⁿ. */
export function niceMax(value: number): number {
  if (value <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 5, 10]) if (value <= step * power) return step * power;
  return 10 * power;
}

/** The points of one line in the plot area. */
export function linePoints(values: readonly number[], max: number): string {
  const w = WIDTH - PAD.left - PAD.right;
  const h = HEIGHT - PAD.top - PAD.bottom;
  const step = values.length > 1 ? w / (values.length - 1) : 0;
  return values
    .map((v, i) => {
      const x = PAD.left + (values.length > 1 ? i * step : w / 2);
      const y = PAD.top + h - (max > 0 ? (v / max) * h : 0);
      return `${x.toFixed(1)},${y.toFixed(1)}`;
    })
    .join(" ");
}

/**
 * A server-rendered SVG line chart: no script, no library. Screen readers get its title
 * and description; the caller shows the numbers as a table too. Colours come from
 * Tailwind classes, so it follows dark mode.
 */
export function LineChart({
  title,
  description,
  labels,
  lines,
}: {
  title: string;
  description: string;
  /** One label per point (the days), first and last shown under the axis. */
  labels: readonly string[];
  lines: readonly ChartLine[];
}) {
  const id = useId();
  const max = niceMax(Math.max(0, ...lines.flatMap((l) => l.values)));
  const plotBottom = HEIGHT - PAD.bottom;
  const ticks = [0, max / 2, max];
  const y = (v: number) => PAD.top + (HEIGHT - PAD.top - PAD.bottom) * (1 - v / max);
  return (
    <figure className="space-y-2">
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-labelledby={`${id}-title ${id}-desc`}
        className="h-auto w-full text-zinc-700 dark:text-zinc-300"
        data-testid="insights-chart"
      >
        <title id={`${id}-title`}>{title}</title>
        <desc id={`${id}-desc`}>{description}</desc>
        {ticks.map((tick) => (
          <g key={tick}>
            <line
              x1={PAD.left}
              x2={WIDTH - PAD.right}
              y1={y(tick)}
              y2={y(tick)}
              className="stroke-zinc-200 dark:stroke-zinc-700"
              strokeWidth={1}
            />
            <text x={PAD.left - 6} y={y(tick) + 4} textAnchor="end" fontSize={12} fill="currentColor">
              {Number.isInteger(tick) ? tick : tick.toFixed(1)}
            </text>
          </g>
        ))}
        {labels.length > 0 ? (
          <>
            <text x={PAD.left} y={plotBottom + 18} fontSize={12} fill="currentColor">
              {labels[0]}
            </text>
            <text x={WIDTH - PAD.right} y={plotBottom + 18} fontSize={12} textAnchor="end" fill="currentColor">
              {labels[labels.length - 1]}
            </text>
          </>
        ) : null}
        {lines.map((line) => (
          <polyline
            key={line.label}
            points={linePoints(line.values, max)}
            fill="none"
            strokeWidth={2}
            strokeLinejoin="round"
            strokeDasharray={line.dash}
            className={line.strokeClass}
          />
        ))}
      </svg>
      <figcaption className="flex flex-wrap gap-4 text-sm text-zinc-700 dark:text-zinc-300">
        {lines.map((line) => (
          <span key={line.label} className="inline-flex items-center gap-2">
            <svg width="24" height="8" aria-hidden="true" className="shrink-0">
              <line
                x1="0"
                x2="24"
                y1="4"
                y2="4"
                strokeWidth={2}
                strokeDasharray={line.dash}
                className={line.strokeClass}
              />
            </svg>
            {line.label}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}

/**
 * A post's views per day as a small line beside its row: decorative (the row has the
 * total, the CSV has the days), so hidden from screen readers.
 */
export function Sparkline({ values, className = "" }: { values: readonly number[]; className?: string }) {
  const width = 80;
  const height = 20;
  const max = Math.max(1, ...values);
  const step = values.length > 1 ? width / (values.length - 1) : 0;
  const points = values
    .map(
      (v, i) =>
        `${(values.length > 1 ? i * step : width / 2).toFixed(1)},${(height - 1 - (v / max) * (height - 2)).toFixed(1)}`,
    )
    .join(" ");
  return (
    <svg
      width={width}
      height={height}
      viewBox={`0 0 ${width} ${height}`}
      aria-hidden="true"
      className={`inline-block shrink-0 ${className}`}
      data-testid="sparkline"
    >
      <polyline
        points={points}
        fill="none"
        strokeWidth={1.5}
        strokeLinejoin="round"
        className="stroke-blue-700 dark:stroke-sky-400"
      />
    </svg>
  );
}
