import pino from "pino";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../tests/setup/test-db.ts";
import { createContentChanges } from "../cache/content-changes.server.ts";
import { createRenderCache } from "../cache/render-cache.server.ts";
import {
  adsInWindow,
  clickThrough,
  createAd,
  createAdImpressions,
  deleteAd,
  getAd,
  listAdsForAdmin,
  type NewAd,
  parseAdSort,
  pickAdInWindow,
  pickWeighted,
  updateAd,
  writeImpressionIncrements,
} from "./ads.server.ts";

const BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36";
const BOT = "Googlebot/2.1 (+http://www.google.com/bot.html)";

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.cleanup();
});
beforeEach(async () => {
  await database.db.deleteFrom("ads").execute();
});

const textAd = (over: Partial<NewAd> = {}): NewAd => ({
  placement: "home_top",
  kind: "text",
  titleEn: "Buy ink",
  textEn: "Good ink",
  linkUrl: "https://shop.example/ink",
  ...over,
});

describe("active ads", () => {
  it("are the enabled ads of the placement inside their time window", async () => {
    const { db } = database;
    const now = "2026-06-01T00:00:00.000Z";
    await createAd(db, textAd({ titleEn: "Open" }));
    await createAd(db, textAd({ titleEn: "Other placement", placement: "post_bottom" }));
    await createAd(db, textAd({ titleEn: "Off", enabled: false }));
    await createAd(db, textAd({ titleEn: "Future", startsAt: "2026-07-01T00:00:00.000Z" }));
    await createAd(db, textAd({ titleEn: "Ended", endsAt: "2026-06-01T00:00:00.000Z" }));
    await createAd(
      db,
      textAd({ titleEn: "Window", startsAt: "2026-06-01T00:00:00.000Z", endsAt: "2026-06-02T00:00:00.000Z" }),
    );
    const active = (await adsInWindow(db, "home_top", now)).active;
    expect(active.map((a) => a.titleEn).sort()).toEqual(["Open", "Window"]);
    expect((await adsInWindow(db, "post_bottom", now)).active.map((a) => a.titleEn)).toEqual(["Other placement"]);
    expect((await adsInWindow(db, "sidebar", now)).active).toEqual([]);
    expect((await pickAdInWindow(db, "sidebar", { locale: "en", now })).ad).toBeNull();
  });

  it("never hand the target URL to the page", async () => {
    const { db } = database;
    await createAd(db, textAd());
    const ad = (await pickAdInWindow(db, "home_top", { locale: "en" })).ad;
    expect(ad).not.toBeNull();
    expect(ad).not.toHaveProperty("linkUrl");
    expect(ad).not.toHaveProperty("weight");
  });

  it("are read once per content version, and afresh after a content change", async () => {
    const { db } = database;
    const content = createContentChanges({
      db,
      renderCache: createRenderCache(1_000_000),
      version: { bump: async () => {}, read: async () => 1, changes: async () => [] },
      log: pino({ level: "silent" }),
    });
    const now = "2026-06-01T00:00:00.000Z";
    await createAd(db, textAd({ titleEn: "Kept" }));
    expect((await adsInWindow(db, "home_top", now)).active.map((a) => a.titleEn)).toEqual(["Kept"]);
    // A write that is not a content change (straight into the table, same connection) is not seen…
    await db.updateTable("ads").set({ enabled: 0 }).execute();
    expect((await adsInWindow(db, "home_top", now)).active.map((a) => a.titleEn)).toEqual(["Kept"]);
    // …until a content change, here another instance's, seen through the version watcher.
    content.forgetLocal("all");
    expect((await adsInWindow(db, "home_top", now)).active).toEqual([]);
    // The ad module's own writes drop the kept rows too.
    await createAd(db, textAd({ titleEn: "New" }));
    expect((await adsInWindow(db, "home_top", now)).active.map((a) => a.titleEn)).toEqual(["New"]);
  });

  it("still follow each request's time: windows close and open without a change", async () => {
    const { db } = database;
    await createAd(db, textAd({ titleEn: "Ends", endsAt: "2026-06-01T12:00:00.000Z" }));
    await createAd(db, textAd({ titleEn: "Starts", startsAt: "2026-06-01T12:00:00.000Z" }));
    const titles = async (now: string) => (await adsInWindow(db, "home_top", now)).active.map((a) => a.titleEn);
    expect(await titles("2026-06-01T00:00:00.000Z")).toEqual(["Ends"]);
    expect(await titles("2026-06-01T12:00:00.000Z")).toEqual(["Starts"]);
    // An earlier moment than the kept read is read afresh (the ended ad is not in the kept rows).
    expect(await titles("2026-05-31T00:00:00.000Z")).toEqual(["Ends"]);
  });
});

describe("language versions", () => {
  it("show the reader's language, and the other one where the ad has none in it", async () => {
    const { db } = database;
    const both = await createAd(
      db,
      textAd({ titleEn: "Buy ink", textEn: "Good ink", titleZh: "买墨水", textZh: "好墨水" }),
    );
    const pick = async (locale: "en" | "zh") => (await pickAdInWindow(db, "home_top", { locale, random: () => 0 })).ad;
    expect(await pick("en")).toEqual({
      id: both,
      kind: "text",
      title: "Buy ink",
      text: "Good ink",
      imageUrl: null,
      imageAlt: "",
    });
    expect(await pick("zh")).toMatchObject({ id: both, title: "买墨水", text: "好墨水" });

    await database.db.deleteFrom("ads").execute();
    await createAd(db, textAd({ titleEn: "", textEn: "", titleZh: "只有中文", textZh: "中文内容" }));
    expect(await pick("en")).toMatchObject({ title: "只有中文", text: "中文内容" });
    expect(await pick("zh")).toMatchObject({ title: "只有中文", text: "中文内容" });

    await database.db.deleteFrom("ads").execute();
    await createAd(db, textAd({ titleEn: "English only", textEn: "Text" }));
    expect(await pick("zh")).toMatchObject({ title: "English only", text: "Text" });
  });

  it("give each language its own image and description, never mixing versions", async () => {
    const { db } = database;
    const id = await createAd(db, {
      placement: "list_between",
      kind: "image",
      titleEn: "Pens",
      imageUrlEn: "/pens-en.png",
      imageAltEn: "Three pens",
      titleZh: "钢笔",
      imageUrlZh: "/pens-zh.png",
      imageAltZh: "三支钢笔",
      linkUrl: "https://pens.example/",
    });
    expect((await pickAdInWindow(db, "list_between", { locale: "en" })).ad).toMatchObject({
      imageUrl: "/pens-en.png",
      imageAlt: "Three pens",
    });
    expect((await pickAdInWindow(db, "list_between", { locale: "zh" })).ad).toMatchObject({
      imageUrl: "/pens-zh.png",
      imageAlt: "三支钢笔",
    });
    expect(await getAd(db, id)).toMatchObject({
      titleEn: "Pens",
      imageUrlEn: "/pens-en.png",
      titleZh: "钢笔",
      imageUrlZh: "/pens-zh.png",
    });
  });
});

describe("weighted pick", () => {
  it("is proportional to the weight and deterministic with an injected random", () => {
    const ads = [
      { id: "a", weight: 1 },
      { id: "b", weight: 3 },
      { id: "c", weight: 6 },
    ];
    expect(pickWeighted(ads, () => 0)?.id).toBe("a");
    expect(pickWeighted(ads, () => 0.09)?.id).toBe("a");
    expect(pickWeighted(ads, () => 0.1)?.id).toBe("b");
    expect(pickWeighted(ads, () => 0.39)?.id).toBe("b");
    expect(pickWeighted(ads, () => 0.4)?.id).toBe("c");
    expect(pickWeighted(ads, () => 0.999_999)?.id).toBe("c");
    expect(pickWeighted(ads, () => 1)?.id).toBe("c");
    expect(pickWeighted([], () => 0.5)).toBeNull();
  });

  it("picks from the database by weight", async () => {
    const { db } = database;
    const light = await createAd(db, textAd({ titleEn: "Light", weight: 1 }));
    await new Promise((r) => setTimeout(r, 5)); // createdAt orders the candidates
    const heavy = await createAd(db, textAd({ titleEn: "Heavy", weight: 99 }));
    expect((await pickAdInWindow(db, "home_top", { locale: "en", random: () => 0 })).ad?.id).toBe(light);
    expect((await pickAdInWindow(db, "home_top", { locale: "en", random: () => 0.02 })).ad?.id).toBe(heavy);
    expect((await pickAdInWindow(db, "home_top", { locale: "en", random: () => 0.5 })).ad?.id).toBe(heavy);
  });

  it("keeps weights within 1–100", async () => {
    const { db } = database;
    const id = await createAd(db, textAd({ weight: 500 }));
    expect((await getAd(db, id))?.weight).toBe(100);
    const low = await createAd(db, textAd({ weight: 0 }));
    expect((await getAd(db, low))?.weight).toBe(1);
  });
});

describe("click-through", () => {
  it("redirects only to the stored URL of an existing enabled ad, counting human clicks", async () => {
    const { db } = database;
    const id = await createAd(db, textAd({ linkUrl: "https://shop.example/ink?x=1" }));
    const off = await createAd(db, textAd({ enabled: false, linkUrl: "https://off.example" }));
    expect(await clickThrough(db, id, BROWSER)).toBe("https://shop.example/ink?x=1");
    expect(await clickThrough(db, id, BROWSER)).toBe("https://shop.example/ink?x=1");
    expect(await clickThrough(db, id, BOT)).toBe("https://shop.example/ink?x=1");
    expect((await getAd(db, id))?.clicks).toBe(2);
    expect(await clickThrough(db, off, BROWSER)).toBeNull();
    expect((await getAd(db, off))?.clicks).toBe(0);
    expect(await clickThrough(db, "missing", BROWSER)).toBeNull();
    expect(await clickThrough(db, "https://evil.example", BROWSER)).toBeNull();
    const bad = await createAd(db, textAd({ linkUrl: "javascript:alert(1)" }));
    expect(await clickThrough(db, bad, BROWSER)).toBeNull();
  });
});

describe("impressions", () => {
  it("are counted in memory, never for bots, and written in batches", async () => {
    const { db } = database;
    const a = await createAd(db, textAd());
    const b = await createAd(db, textAd({ placement: "post_bottom" }));
    const writes: Array<Map<string, number>> = [];
    const counter = createAdImpressions(db, {
      intervalMs: 60_000,
      write: async (increments) => {
        writes.push(new Map(increments));
        await writeImpressionIncrements(db, increments);
      },
    });
    expect(counter.record(a, BROWSER)).toBe(true);
    expect(counter.record(a, BROWSER)).toBe(true);
    expect(counter.record(b, BROWSER)).toBe(true);
    expect(counter.record(a, BOT)).toBe(false);
    expect(counter.record(a, "")).toBe(false);
    expect(counter.record(a, null)).toBe(false);
    expect(counter.pending(a)).toBe(2);
    expect((await getAd(db, a))?.impressions).toBe(0); // nothing written before a flush
    await counter.flush();
    expect(writes).toEqual([
      new Map([
        [a, 2],
        [b, 1],
      ]),
    ]);
    expect(counter.pending(a)).toBe(0);
    expect((await getAd(db, a))?.impressions).toBe(2);
    expect((await getAd(db, b))?.impressions).toBe(1);
    await counter.flush(); // nothing pending: no write
    expect(writes).toHaveLength(1);
    counter.record(a, BROWSER);
    await counter.stop();
    expect((await getAd(db, a))?.impressions).toBe(3);
    expect(counter.record(a, BROWSER)).toBe(true); // accepted but ignored after stop
    expect(counter.pending(a)).toBe(0);
  });

  it("keep a failed batch for the next flush", async () => {
    const { db } = database;
    const a = await createAd(db, textAd());
    const onError = vi.fn();
    let fail = true;
    const counter = createAdImpressions(db, {
      intervalMs: 60_000,
      onError,
      write: async (increments) => {
        if (fail) throw new Error("db down");
        await writeImpressionIncrements(db, increments);
      },
    });
    counter.record(a, BROWSER);
    await counter.flush();
    expect(onError).toHaveBeenCalledTimes(1);
    expect(counter.pending(a)).toBe(1);
    fail = false;
    counter.record(a, BROWSER);
    await counter.stop();
    expect((await getAd(db, a))?.impressions).toBe(2);
  });
});

describe("admin list", () => {
  it("filters by placement, searches literally, sorts from the allowlist and pages", async () => {
    const { db } = database;
    const a = await createAd(db, textAd({ titleEn: "Zeta ink", textEn: "50% off" }));
    await createAd(db, textAd({ titleEn: "Alpha pens", placement: "post_bottom" }));
    await createAd(db, textAd({ titleEn: "Mid", kind: "image", imageUrlEn: "/ad.png", textEn: "" }));
    await writeImpressionIncrements(db, new Map([[a, 10]]));
    expect(
      (await listAdsForAdmin(db, { placement: "post_bottom", page: 1, pageSize: 10 })).items.map((x) => x.titleEn),
    ).toEqual(["Alpha pens"]);
    expect((await listAdsForAdmin(db, { q: "%", page: 1, pageSize: 10 })).items.map((x) => x.titleEn)).toEqual([
      "Zeta ink",
    ]);
    expect((await listAdsForAdmin(db, { sort: "title", page: 1, pageSize: 10 })).items.map((x) => x.titleEn)).toEqual([
      "Alpha pens",
      "Mid",
      "Zeta ink",
    ]);
    expect((await listAdsForAdmin(db, { sort: "impressions", page: 1, pageSize: 10 })).items[0]?.id).toBe(a);
    // Both languages are searched; titles sort in the admin's language, else the other one.
    await createAd(db, textAd({ titleEn: "", textEn: "", titleZh: "Beta 中文", textZh: "墨水特价" }));
    expect((await listAdsForAdmin(db, { q: "特价", page: 1, pageSize: 10 })).items.map((x) => x.titleZh)).toEqual([
      "Beta 中文",
    ]);
    expect(
      (await listAdsForAdmin(db, { sort: "title", locale: "en", page: 1, pageSize: 10 })).items.map(
        (x) => x.titleEn || x.titleZh,
      ),
    ).toEqual(["Alpha pens", "Beta 中文", "Mid", "Zeta ink"]);
    expect(parseAdSort("title; drop table ads")).toBe("newest");
    expect(parseAdSort("clicks")).toBe("clicks");
    const paged = await listAdsForAdmin(db, { page: 5, pageSize: 2 });
    expect(paged).toMatchObject({ total: 4, page: 2, pageCount: 2 });
  });

  it("updates (not the counters) and deletes", async () => {
    const { db } = database;
    const id = await createAd(db, textAd());
    await writeImpressionIncrements(db, new Map([[id, 4]]));
    const ok = await updateAd(db, id, {
      placement: "list_between",
      kind: "image",
      titleEn: "New",
      textEn: "",
      imageUrlEn: "/ad.png",
      imageAltEn: "An ad",
      titleZh: "新",
      textZh: "",
      imageUrlZh: "/ad-zh.png",
      imageAltZh: "一则广告",
      linkUrl: "https://new.example",
      enabled: false,
      startsAt: null,
      endsAt: "2027-01-01T00:00:00.000Z",
      weight: 7,
    });
    expect(ok).toBe(true);
    expect(await getAd(db, id)).toMatchObject({
      placement: "list_between",
      kind: "image",
      enabled: false,
      weight: 7,
      impressions: 4,
      clicks: 0,
      linkUrl: "https://new.example",
      titleZh: "新",
      imageUrlZh: "/ad-zh.png",
      imageAltZh: "一则广告",
    });
    expect(await deleteAd(db, id)).toBe(true);
    expect(await getAd(db, id)).toBeUndefined();
  });
});
