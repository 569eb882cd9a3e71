import { renderToString } from "react-dom/server";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DateTimeField } from "./form-parts.tsx";

// A stored window time in the form: in UTC (offset 0) until hydrated, then in the
// browser's zone with the offset of that instant, which the hidden field sends back.
// The "browser" is New York; the form is opened on 2026-11-26 (EST) for both times.
describe("DateTimeField", () => {
  let saved: string | undefined;
  beforeEach(() => {
    saved = process.env.TZ;
    process.env.TZ = "America/New_York";
  });
  afterEach(() => {
    if (saved === undefined) delete process.env.TZ;
    else process.env.TZ = saved;
  });

  const render = (iso: string | null, hydrated: boolean) => {
    const html = renderToString(
      <DateTimeField id="ad-startsAt" label="Starts" name="startsAt" iso={iso} error={null} hydrated={hydrated} />,
    );
    const value = (name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1];
    return { shown: value("startsAt"), tz: value("startsAtTz") };
  };

  it.each([
    // A summer time (EDT, UTC−4) and a winter time (EST, UTC−5), each with its own offset.
    ["2026-07-04T16:00:00.000Z", "2026-07-04T12:00", "240"],
    ["2027-01-10T17:00:00.000Z", "2027-01-10T12:00", "300"],
    // Just after spring forward and just after fall back.
    ["2026-03-08T07:00:00.000Z", "2026-03-08T03:00", "240"],
    ["2026-11-01T06:30:00.000Z", "2026-11-01T01:30", "300"],
  ])("shows %s as %s with offset %s once hydrated", (iso, shown, tz) => {
    expect(render(iso, true)).toEqual({ shown, tz });
  });

  it("shows UTC with offset 0 before hydration (and without JavaScript)", () => {
    expect(render("2026-07-04T16:00:00.000Z", false)).toEqual({ shown: "2026-07-04T16:00", tz: "0" });
    expect(render(null, true)).toEqual({ shown: "", tz: "0" });
  });
});
