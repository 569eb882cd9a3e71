import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../tests/setup/test-db.ts";
import { nowIso } from "../db/db.server.ts";
import { countFederatedPosts, federatedPostSources } from "../federation/store.server.ts";
import { latestPostsInLocale, sitemapData, sitemapTerms } from "../feeds/discovery.server.ts";
import { notFoundForReader } from "../posts/not-found.server.ts";
import { forgetPostCounts } from "../posts/post-counts.server.ts";
import { createPost, listPublishedPosts } from "../posts/posts.server.ts";
import { redirectFromRefusal } from "../redirects/reserved.server.ts";
import { reindexAll } from "../search/index.server.ts";
import { searchPosts } from "../search/search.server.ts";
import { pageForReader } from "./page-view.server.ts";
import {
  createPage,
  deletePage,
  getPage,
  listPageRevisions,
  listPagesForAdmin,
  type PageFields,
  pageSlugRefusal,
  publishedPageBySlug,
  restorePageRevision,
  updatePage,
} from "./pages.server.ts";

let database: TestDatabase;

const fields = (over: Partial<PageFields> = {}): PageFields => ({
  slug: "now",
  status: "published",
  titleEn: "What I do now",
  titleZh: "近况",
  bodyEn: "Baking **zanzibarloaf** bread.",
  bodyZh: "烤面包。",
  descriptionEn: "",
  descriptionZh: "",
  ...over,
});

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.cleanup();
});
beforeEach(async () => {
  const { db } = database;
  await db.deleteFrom("pageRevisions").execute();
  await db.deleteFrom("pages").where("systemKey", "is", null).execute();
  await db.deleteFrom("redirects").execute();
});

describe("a page's address", () => {
  it("refuses the site's own addresses, with their language forms, and what is served before routing", async () => {
    const { db } = database;
    for (const slug of [
      "posts",
      "search",
      "about",
      "contact",
      "privacy",
      "links",
      "login",
      "admin",
      "api",
      "en",
      "zh",
      "setup",
      "subscribe",
      "unsubscribe",
      "account",
      "media",
      "assets",
      "healthz",
      "sitemaps",
      "solana",
      "rss.xml",
    ]) {
      expect(await pageSlugRefusal(db, slug, null), slug).toBe("slugReserved");
      const created = await createPage(db, fields({ slug }), null);
      expect(created, slug).toEqual({ ok: false, error: "slugReserved", field: "slug" });
    }
    expect(await db.selectFrom("pages").select("id").where("systemKey", "is", null).execute()).toEqual([]);
  });

  it("refuses another page's address and a redirect's from-path, in any language form", async () => {
    const { db } = database;
    const first = await createPage(db, fields(), null);
    expect(first.ok).toBe(true);
    expect(await createPage(db, fields({ titleEn: "Other" }), null)).toEqual({
      ok: false,
      error: "slugTaken",
      field: "slug",
    });
    const now = nowIso();
    for (const [i, from] of ["/uses", "/en/colophon", "/zh/faq"].entries()) {
      await db
        .insertInto("redirects")
        .values({ id: `r${i}`, fromPath: from, toPath: "/posts", createdAt: now, updatedAt: now })
        .execute();
    }
    for (const slug of ["uses", "colophon", "faq"]) {
      expect(await createPage(db, fields({ slug }), null), slug).toEqual({
        ok: false,
        error: "slugRedirected",
        field: "slug",
      });
    }
    // Renaming to a taken address is refused too, and writes nothing.
    const other = await createPage(db, fields({ slug: "later" }), null);
    if (!other.ok) throw new Error("not created");
    expect(await updatePage(db, other.id, fields({ slug: "now" }), null)).toEqual({
      ok: false,
      error: "slugTaken",
      field: "slug",
    });
    expect((await getPage(db, other.id))?.slug).toBe("later");
  });

  it("takes an address no route names, and then a redirect may not start there", async () => {
    const { db } = database;
    expect(await redirectFromRefusal(db, { path: "/now", query: "" })).toBeNull();
    expect((await createPage(db, fields(), null)).ok).toBe(true);
    expect(await redirectFromRefusal(db, { path: "/now", query: "" })).toBe("fromLive");
    expect(await redirectFromRefusal(db, { path: "/zh/now", query: "" })).toBe("fromLive");
  });
});

describe("the pages About, Contact and Privacy", () => {
  it("are there after the migrations, published, at their fixed addresses", async () => {
    const { db } = database;
    const rows = await db
      .selectFrom("pages")
      .select(["slug", "systemKey", "status"])
      .where("systemKey", "is not", null)
      .orderBy("slug")
      .execute();
    expect(rows).toEqual([
      { slug: "about", systemKey: "about", status: "published" },
      { slug: "contact", systemKey: "contact", status: "published" },
      { slug: "privacy", systemKey: "privacy", status: "published" },
    ]);
  });

  it("keep their address when saved, and cannot be deleted", async () => {
    const { db } = database;
    const about = await publishedPageBySlug(db, "about");
    if (!about) throw new Error("no about page");
    const saved = await updatePage(db, about.id, { ...about, slug: "about-me", bodyEn: "Hello." }, null);
    expect(saved.ok).toBe(true);
    const after = await getPage(db, about.id);
    expect(after?.slug).toBe("about");
    expect(after?.bodyEn).toBe("Hello.");
    expect(await deletePage(db, about.id)).toBe("system");
    expect(await getPage(db, about.id)).toBeDefined();
  });
});

describe("saving, revisions and readers", () => {
  it("keeps a revision per save, coalesced for ten minutes, and restores one's text", async () => {
    const { db } = database;
    const t0 = new Date("2026-11-29T08:00:00.000Z");
    const created = await createPage(db, fields({ bodyEn: "First." }), "u1", t0);
    if (!created.ok) throw new Error("not created");
    await updatePage(db, created.id, fields({ bodyEn: "Second." }), "u1", { now: new Date(t0.getTime() + 60_000) });
    await updatePage(db, created.id, fields({ bodyEn: "Third." }), "u2", { now: new Date(t0.getTime() + 120_000) });
    let revisions = await listPageRevisions(db, created.id);
    // One person's saves within ten minutes of a revision's start are that revision; another's are their own.
    expect(revisions.map((r) => [r.authorId, r.content.bodyEn])).toEqual([
      ["u2", "Third."],
      ["u1", "Second."],
    ]);
    await updatePage(db, created.id, fields({ bodyEn: "Fourth." }), "u2", {
      now: new Date(t0.getTime() + 13 * 60_000),
    });
    expect(await listPageRevisions(db, created.id)).toHaveLength(3);
    const second = revisions[1];
    if (!second) throw new Error("no revision");
    const restored = await restorePageRevision(db, created.id, second.id, "u1", new Date(t0.getTime() + 14 * 60_000));
    expect(restored.ok).toBe(true);
    expect((await getPage(db, created.id))?.bodyEn).toBe("Second.");
    revisions = await listPageRevisions(db, created.id);
    expect(revisions).toHaveLength(4);
    expect(revisions[0]?.content.bodyEn).toBe("Second.");
  });

  it("refuses a save over a newer version", async () => {
    const { db } = database;
    const created = await createPage(db, fields(), null);
    if (!created.ok) throw new Error("not created");
    expect((await updatePage(db, created.id, fields({ bodyEn: "A" }), null, { version: 1 })).ok).toBe(true);
    expect(await updatePage(db, created.id, fields({ bodyEn: "B" }), null, { version: 1 })).toEqual({
      ok: false,
      error: "conflict",
    });
    expect((await getPage(db, created.id))?.bodyEn).toBe("A");
  });

  it("shows a published page in the reader's language, the other when it has only that, and a draft as a 404", async () => {
    const { db } = database;
    await createPage(db, fields(), null);
    await createPage(db, fields({ slug: "only-zh", titleEn: "", bodyEn: "" }), null);
    await createPage(db, fields({ slug: "secret", status: "draft" }), null);
    const en = await pageForReader(db, "now", "en");
    expect(en).toMatchObject({ title: "What I do now", contentLocale: "en" });
    expect(en.html).toContain("<strong>zanzibarloaf</strong>");
    expect(await pageForReader(db, "NOW", "zh")).toMatchObject({ title: "近况", contentLocale: "zh" });
    expect(await pageForReader(db, "only-zh", "en")).toMatchObject({ title: "近况", contentLocale: "zh" });
    await expect(pageForReader(db, "secret", "en")).rejects.toMatchObject({ init: { status: 404 } });
    await expect(pageForReader(db, "nothing-here", "en")).rejects.toMatchObject({ init: { status: 404 } });
    // The 404 is the reader's usual one.
    await expect(notFoundForReader(db, "en")).rejects.toMatchObject({ init: { status: 404 } });
  });

  it("lists pages for the admin, searchable", async () => {
    const { db } = database;
    await createPage(db, fields(), null);
    const all = await listPagesForAdmin(db, { page: 1, pageSize: 20 });
    expect(all.items.map((p) => p.slug).sort()).toEqual(["about", "contact", "now", "privacy"]);
    const found = await listPagesForAdmin(db, { q: "近况", page: 1, pageSize: 20 });
    expect(found.items.map((p) => p.slug)).toEqual(["now"]);
  });
});

describe("pages are not posts", () => {
  it("are in the sitemap when published, and nowhere posts are listed, fed, searched, mailed or federated", async () => {
    const { db } = database;
    await createPost(db, {
      slug: "a-post",
      authorId: null,
      status: "published",
      publishedAt: "2026-11-01T00:00:00.000Z",
      translations: [
        { locale: "en", title: "A post", bodyMarkdown: "Plain bread." },
        { locale: "zh", title: "一篇文章", bodyMarkdown: "面包。" },
      ],
    });
    await createPage(db, fields(), null);
    await createPage(db, fields({ slug: "draft-page", status: "draft" }), null);
    forgetPostCounts(db);

    const terms = await sitemapTerms(db);
    expect(terms.pages.map((p) => p.slug)).toEqual(["about", "contact", "now", "privacy"]);
    const sitemap = await sitemapData(db);
    expect(sitemap.posts).toHaveLength(1);

    for (const locale of ["en", "zh"] as const) {
      const list = await listPublishedPosts(db, { locale, page: 1, pageSize: 50 });
      expect(list.items.map((p) => p.slug)).toEqual(["a-post"]);
      expect((await latestPostsInLocale(db, locale, 50)).map((p) => p.id)).toHaveLength(1);
      expect(await countFederatedPosts(db, locale)).toBe(1);
    }
    expect((await federatedPostSources(db, {})).map((p) => p.id)).toHaveLength(2);

    await reindexAll(db);
    expect((await searchPosts(db, { q: "zanzibarloaf", locale: "en", page: 1, pageSize: 10 })).total).toBe(0);
    expect((await searchPosts(db, { q: "bread", locale: "en", page: 1, pageSize: 10 })).total).toBe(1);

    expect(await db.selectFrom("newsletterSends").select("id").execute()).toEqual([]);
    expect(await db.selectFrom("federationPosts").selectAll().execute()).toEqual([]);
  });
});
