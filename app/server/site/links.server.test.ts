import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../tests/setup/test-db.ts";
import {
  createLink,
  deleteLink,
  FOOTER_LINKS,
  getLink,
  listEnabledLinks,
  listLinksForAdmin,
  moveLink,
  updateLink,
} from "./links.server.ts";

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.cleanup();
});
beforeEach(async () => {
  await database.db.deleteFrom("links").execute();
});

describe("listEnabledLinks", () => {
  it("lists enabled links in order, and at most `limit` of them", async () => {
    const { db } = database;
    await createLink(db, { name: "Second", url: "https://b.example", sortOrder: 2 });
    await createLink(db, { name: "First", url: "https://a.example", sortOrder: 1, logoUrl: "/a.png" });
    await createLink(db, { name: "Off", url: "https://off.example", enabled: false });
    const all = await listEnabledLinks(db);
    expect(all.map((l) => l.name)).toEqual(["First", "Second"]);
    expect(all[0]).toMatchObject({ url: "https://a.example", logoUrl: "/a.png", description: "" });
    expect((await listEnabledLinks(db, 1)).map((l) => l.name)).toEqual(["First"]);
    for (let i = 0; i < FOOTER_LINKS + 2; i++) await createLink(db, { name: `L${i}`, url: "https://x.example" });
    expect(await listEnabledLinks(db, FOOTER_LINKS)).toHaveLength(FOOTER_LINKS);
  });
});

describe("admin list", () => {
  it("searches name, address and description with % and _ taken literally, and pages", async () => {
    const { db } = database;
    await createLink(db, { name: "Alpha Blog", url: "https://alpha.example", description: "100% cotton" });
    await createLink(db, { name: "Beta", url: "https://beta_site.example" });
    await createLink(db, { name: "Gamma", url: "https://gamma.example", description: "writing" });
    expect((await listLinksForAdmin(db, { q: "alpha", page: 1, pageSize: 10 })).total).toBe(1);
    expect((await listLinksForAdmin(db, { q: "BETA_", page: 1, pageSize: 10 })).items.map((l) => l.name)).toEqual([
      "Beta",
    ]);
    expect((await listLinksForAdmin(db, { q: "%", page: 1, pageSize: 10 })).items.map((l) => l.name)).toEqual([
      "Alpha Blog",
    ]);
    expect((await listLinksForAdmin(db, { q: "writ", page: 1, pageSize: 10 })).total).toBe(1);
    const paged = await listLinksForAdmin(db, { page: 9, pageSize: 2 });
    expect(paged).toMatchObject({ total: 3, page: 2, pageCount: 2 });
    expect(paged.items).toHaveLength(1);
  });

  it("updates, moves and deletes", async () => {
    const { db } = database;
    const a = await createLink(db, { name: "A", url: "https://a.example", sortOrder: 1 });
    const b = await createLink(db, { name: "B", url: "https://b.example", sortOrder: 2 });
    const c = await createLink(db, { name: "C", url: "https://c.example", sortOrder: 3 });
    expect(await moveLink(db, c, 0)).toBe(true);
    expect((await listEnabledLinks(db)).map((l) => l.id)).toEqual([c, a, b]);
    expect(await moveLink(db, c, 99)).toBe(true);
    expect((await listEnabledLinks(db)).map((l) => l.id)).toEqual([a, b, c]);
    expect(await moveLink(db, "missing", 0)).toBe(false);

    expect(
      await updateLink(db, b, {
        name: "B2",
        url: "http://b2.example",
        logoUrl: null,
        description: "d",
        sortOrder: 5,
        enabled: false,
      }),
    ).toBe(true);
    expect(await getLink(db, b)).toMatchObject({ name: "B2", url: "http://b2.example", enabled: false, sortOrder: 5 });
    expect((await listEnabledLinks(db)).map((l) => l.id)).toEqual([a, c]);
    expect(
      await updateLink(db, "missing", {
        name: "x",
        url: "https://x.example",
        logoUrl: null,
        description: "",
        sortOrder: 0,
        enabled: true,
      }),
    ).toBe(false);
    expect(await deleteLink(db, a)).toBe(true);
    expect(await deleteLink(db, a)).toBe(false);
    expect(await getLink(db, a)).toBeUndefined();
  });
});
