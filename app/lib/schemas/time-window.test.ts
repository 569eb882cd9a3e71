import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { browserOffsetAt } from "../editor-values.ts";
import { validate } from "../forms.ts";
import { adSchema } from "./ad.ts";
import { isoToLocalDateTime } from "./post.ts";
import { swaperSchema } from "./swaper.ts";
import { offsetMinutes, windowInOrder, windowToUtc } from "./time-window.ts";

// The windows of ads and slides, as the forms send them: each time with the browser's
// offset at that moment (browserOffsetAt, as the post editor does). Node follows a
// changed TZ at once, so the "browser" here is New York, across both DST changes of 2026
// (spring forward 2026-03-08 02:00 EST → 03:00 EDT; fall back 2026-11-01 02:00 EDT → 01:00 EST).
describe("ad and slide windows in the browser's zone and UTC", () => {
  let saved: string | undefined;
  beforeEach(() => {
    saved = process.env.TZ;
    process.env.TZ = "America/New_York";
  });
  afterEach(() => {
    if (saved === undefined) delete process.env.TZ;
    else process.env.TZ = saved;
  });

  /** What the form posts for a window typed in the browser. */
  const typed = (startsAt: string, endsAt: string) => ({
    startsAt,
    startsAtTz: String(browserOffsetAt(startsAt)),
    endsAt,
    endsAtTz: String(browserOffsetAt(endsAt)),
  });

  it.each([
    // Entered in winter (EST), running into summer (EDT): each end keeps its own offset.
    ["2026-03-07T12:00", "2026-03-07T17:00:00.000Z", "2026-03-09T12:00", "2026-03-09T16:00:00.000Z"],
    ["2026-03-08T01:59", "2026-03-08T06:59:00.000Z", "2026-03-08T03:00", "2026-03-08T07:00:00.000Z"],
    // Entered in summer, ending after the fall back.
    ["2026-10-31T09:00", "2026-10-31T13:00:00.000Z", "2026-11-02T09:00", "2026-11-02T14:00:00.000Z"],
    ["2026-11-01T00:30", "2026-11-01T04:30:00.000Z", "2026-11-01T03:00", "2026-11-01T08:00:00.000Z"],
  ])("%s → %s and %s → %s, shown again as entered", (start, startIso, end, endIso) => {
    expect(windowToUtc(typed(start, end))).toEqual({ startsAt: startIso, endsAt: endIso });
    // The form shows a stored instant with that instant's offset.
    const shown = (iso: string) => isoToLocalDateTime(iso, new Date(iso).getTimezoneOffset());
    expect([shown(startIso), shown(endIso)]).toEqual([start, end]);
  });

  it("is an hour off with one offset for both ends (the old way), not with the moment's offset", () => {
    // Today's offset (EST, 300) applied to a July time would store 17:00 UTC for 12:00 EDT.
    const july = typed("2026-07-04T12:00", "2026-07-05T12:00");
    expect(windowToUtc(july).startsAt).toBe("2026-07-04T16:00:00.000Z");
    expect(windowToUtc({ ...july, startsAtTz: "300" }).startsAt).toBe("2026-07-04T17:00:00.000Z");
  });

  it("goes through both forms' schemas: the parsed values convert the same way", () => {
    const window = typed("2026-03-07T22:00", "2026-03-08T03:30");
    const slide = validate(swaperSchema, { imageUrl: "/a.jpg", ...window });
    const ad = validate(adSchema, {
      placement: "home_top",
      kind: "text",
      titleEn: "Ink",
      textEn: "Good",
      linkUrl: "https://shop.example",
      ...window,
    });
    const expected = { startsAt: "2026-03-08T03:00:00.000Z", endsAt: "2026-03-08T07:30:00.000Z" };
    expect(slide.ok && windowToUtc(slide.data)).toEqual(expected);
    expect(ad.ok && windowToUtc(ad.data)).toEqual(expected);
  });

  it("compares the ends in UTC: 01:30 EDT then 01:10 EST on the fall-back night is in order", () => {
    // The repeated hour: the first 01:30 is EDT (240), the later 01:10 is EST (300).
    const v = { startsAt: "2026-11-01T01:30", startsAtTz: "240", endsAt: "2026-11-01T01:10", endsAtTz: "300" };
    expect(windowToUtc(v)).toEqual({ startsAt: "2026-11-01T05:30:00.000Z", endsAt: "2026-11-01T06:10:00.000Z" });
    expect(windowInOrder(v)).toBe(true);
    expect(windowInOrder({ ...v, endsAtTz: "240" })).toBe(false);
  });
});

describe("window values without JavaScript or with bad offsets", () => {
  it("reads times as UTC when the offset is missing or out of range", () => {
    expect(windowToUtc({ startsAt: "2026-05-01T08:30", startsAtTz: "0", endsAt: "", endsAtTz: "0" })).toEqual({
      startsAt: "2026-05-01T08:30:00.000Z",
      endsAt: null,
    });
    expect(offsetMinutes("-480")).toBe(-480);
    expect(offsetMinutes("99999")).toBe(0);
    expect(offsetMinutes("1.5")).toBe(0);
    expect(offsetMinutes("x")).toBe(0);
  });
});
