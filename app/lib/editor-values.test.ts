import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { browserOffsetAt, emptyEditorValues, toBrowserTime } from "./editor-values.ts";
import { localDateTimeToIso } from "./schemas/post.ts";

// The editor's publish time: entered in the browser's zone, sent with that moment's
// offset, stored in UTC, and shown again in the browser's zone. Node follows a
// changed TZ at once, so the "browser" here is New York, across both DST changes.
describe("publish time in the browser's zone and UTC, both ways", () => {
  let saved: string | undefined;
  beforeEach(() => {
    saved = process.env.TZ;
    process.env.TZ = "America/New_York";
  });
  afterEach(() => {
    if (saved === undefined) delete process.env.TZ;
    else process.env.TZ = saved;
  });

  const store = (local: string) => localDateTimeToIso(local, browserOffsetAt(local));
  const show = (iso: string) => {
    const shown = toBrowserTime({ ...emptyEditorValues(), publishAtLocal: iso.slice(0, 16), publishAtTz: "0" });
    return [shown.publishAtLocal, shown.publishAtTz];
  };

  it.each([
    // Spring forward (2026-03-08 02:00 EST → 03:00 EDT).
    ["2026-03-07T12:00", "2026-03-07T17:00:00.000Z", "300"],
    ["2026-03-08T01:59", "2026-03-08T06:59:00.000Z", "300"],
    ["2026-03-08T03:00", "2026-03-08T07:00:00.000Z", "240"],
    // Fall back (2026-11-01 02:00 EDT → 01:00 EST).
    ["2026-11-01T00:30", "2026-11-01T04:30:00.000Z", "240"],
    ["2026-11-01T03:00", "2026-11-01T08:00:00.000Z", "300"],
    ["2026-11-26T18:30", "2026-11-26T23:30:00.000Z", "300"],
  ])("%s New York is %s and shows again as entered", (local, iso, offset) => {
    expect(store(local)).toBe(iso);
    expect(show(iso)).toEqual([local, offset]);
  });

  it("keeps the later of a repeated hour: the offset shown is the offset sent back", () => {
    // 06:30 UTC is the second 01:30 on 2026-11-01 (EST); the form keeps offset 300 until the time is edited.
    const [local, offset] = show("2026-11-01T06:30:00.000Z");
    expect([local, offset]).toEqual(["2026-11-01T01:30", "300"]);
    expect(localDateTimeToIso(local ?? "", Number(offset))).toBe("2026-11-01T06:30:00.000Z");
  });
});
