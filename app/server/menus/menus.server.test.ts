import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../tests/setup/test-db.ts";
import { nowIso } from "../db/db.server.ts";
import { createPage } from "../pages/pages.server.ts";
import { forgetPostCounts } from "../posts/post-counts.server.ts";
import {
  cachedSiteMenus,
  defaultMenu,
  menuItems,
  resetMenu,
  resolveMenu,
  saveMenu,
  siteMenus,
} from "./menus.server.ts";

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.cleanup();
});
beforeEach(async () => {
  await database.db.deleteFrom("menus").execute();
  await database.db.deleteFrom("pages").where("systemKey", "is", null).execute();
  await database.db.updateTable("pages").set({ status: "published" }).execute();
  forgetPostCounts(database.db);
});

const links = (items: Array<{ href: string; label: string }>) => items.map((i) => [i.href, i.label]);

describe("the default menus", () => {
  it("are today's header and footer links, in each language", async () => {
    const { db } = database;
    const en = await siteMenus(db, "en", { hasFriendLinks: false });
    expect(links(en.main)).toEqual([
      ["/", "Home"],
      ["/posts", "All blogs"],
    ]);
    expect(links(en.footer)).toEqual([
      ["/", "Home"],
      ["/about", "About"],
      ["/contact", "Contact"],
      ["/privacy", "Privacy policy"],
    ]);
    const zh = await siteMenus(db, "zh", { hasFriendLinks: true });
    expect(links(zh.main)).toEqual([
      ["/", "首页"],
      ["/posts", "全部博客"],
    ]);
    expect(links(zh.footer)).toEqual([
      ["/", "首页"],
      ["/about", "关于"],
      ["/contact", "联系"],
      ["/privacy", "隐私政策"],
      ["/links", "友情链接"],
    ]);
  });
});

describe("an owner's menu", () => {
  it("links pages, terms and addresses in order, with the target's own name unless labelled", async () => {
    const { db } = database;
    const now = nowIso();
    await db
      .insertInto("categories")
      .values({ id: "c1", slug: "bread", nameEn: "Bread", nameZh: "面包", createdAt: now, updatedAt: now })
      .execute();
    const page = await createPage(
      db,
      {
        slug: "now",
        status: "published",
        titleEn: "Now",
        titleZh: "近况",
        bodyEn: "",
        bodyZh: "",
        descriptionEn: "",
        descriptionZh: "",
      },
      null,
    );
    const draft = await createPage(
      db,
      {
        slug: "later",
        status: "draft",
        titleEn: "Later",
        titleZh: "",
        bodyEn: "",
        bodyZh: "",
        descriptionEn: "",
        descriptionZh: "",
      },
      null,
    );
    if (!page.ok || !draft.ok) throw new Error("pages not created");
    expect(
      await saveMenu(db, "main", "zh", [
        { kind: "builtin", ref: "home", label: "" },
        { kind: "page", ref: page.id, label: "" },
        { kind: "page", ref: draft.id, label: "" },
        { kind: "category", ref: "c1", label: "" },
        { kind: "category", ref: "gone", label: "" },
        { kind: "url", ref: "https://example.com/shop", label: "小店" },
        { kind: "page", ref: page.id, label: "现在" },
      ]),
    ).toBe(true);
    const zh = await siteMenus(db, "zh", { hasFriendLinks: false });
    expect(zh.main).toEqual([
      { href: "/", label: "首页", external: false },
      { href: "/now", label: "近况", external: false },
      { href: "/categories/bread", label: "面包", external: false },
      { href: "https://example.com/shop", label: "小店", external: true },
      { href: "/now", label: "现在", external: false },
    ]);
    // The other language keeps its default.
    expect(links((await siteMenus(db, "en", { hasFriendLinks: false })).main)).toEqual([
      ["/", "Home"],
      ["/posts", "All blogs"],
    ]);
    expect((await menuItems(db, "main", "zh")).custom).toBe(true);
    await resetMenu(db, "main", "zh");
    expect(await menuItems(db, "main", "zh")).toEqual({ items: defaultMenu("main"), custom: false });
  });

  it("refuses an item that is not one, and writes nothing", async () => {
    const { db } = database;
    expect(await saveMenu(db, "footer", "en", [{ kind: "url", ref: "javascript:alert(1)", label: "x" }])).toBe(false);
    expect(await saveMenu(db, "footer", "en", [{ kind: "url", ref: "/ok", label: "" }])).toBe(false);
    expect(await saveMenu(db, "footer", "en", [{ kind: "builtin", ref: "admin", label: "" }])).toBe(false);
    expect(await db.selectFrom("menus").selectAll().execute()).toEqual([]);
  });

  it("leaves out About, Contact and Privacy while their page is a draft", async () => {
    const { db } = database;
    await db.updateTable("pages").set({ status: "draft" }).where("systemKey", "=", "privacy").execute();
    const footer = await resolveMenu(db, defaultMenu("footer"), "en", { hasFriendLinks: false });
    expect(footer.map((i) => i.href)).toEqual(["/", "/about", "/contact"]);
  });

  it("are kept per instance until content changes", async () => {
    const { db } = database;
    const before = await cachedSiteMenus(db, "en", { hasFriendLinks: false });
    await saveMenu(db, "main", "en", [{ kind: "builtin", ref: "search", label: "" }]);
    // On SQLite another connection's write is seen at once; in one process, a change drops them.
    forgetPostCounts(db);
    const after = await cachedSiteMenus(db, "en", { hasFriendLinks: false });
    expect(links(before.main)).toEqual([
      ["/", "Home"],
      ["/posts", "All blogs"],
    ]);
    expect(links(after.main)).toEqual([["/search", "Search"]]);
  });
});
