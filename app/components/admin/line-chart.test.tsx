import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { LineChart, linePoints, niceMax, Sparkline } from "./line-chart.tsx";

describe("LineChart", () => {
  it("rounds the axis up to 1, 2 or 5 times a power of ten", () => {
    expect([0, 1, 3, 7, 12, 20, 480, 501].map(niceMax)).toEqual([1, 1, 5, 10, 20, 20, 500, 1000]);
  });

  it("puts the first point on the left edge and the last on the right, zero at the bottom", () => {
    expect(linePoints([0, 5, 10], 10)).toBe("44.0,192.0 376.0,102.0 708.0,12.0");
  });

  it("is an image named by its title and description, with a legend", () => {
    const html = renderToString(
      <LineChart
        title="Views & visitors"
        description="From A to B"
        labels={["2026-11-01", "2026-11-02"]}
        lines={[
          { label: "Views", values: [1, 2], strokeClass: "stroke-blue-700" },
          { label: "Visitors", values: [1, 1], strokeClass: "stroke-emerald-700", dash: "6 4" },
        ]}
      />,
    );
    expect(html).toMatch(/<svg[^>]+role="img"[^>]+aria-labelledby="(\S+)-title \1-desc"/);
    expect(html).toContain("<title");
    expect(html).toContain("Views &amp; visitors</title>");
    expect(html).toContain("From A to B</desc>");
    expect(html).toContain("2026-11-01");
    expect(html).toContain('stroke-dasharray="6 4"');
    expect(html.match(/<polyline/g)).toHaveLength(2);
  });

  it("draws a sparkline hidden from screen readers", () => {
    const html = renderToString(<Sparkline values={[0, 3, 1]} />);
    expect(html).toContain('aria-hidden="true"');
    expect(html).toContain('points="0.0,19.0 40.0,1.0 80.0,13.0"');
  });
});
