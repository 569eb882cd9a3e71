import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertUser } from "../../../tests/setup/fixtures-db.ts";
import { type FakeUser, fakeSessionRequests } from "../../../tests/setup/route-requests.ts";
import { callRoute } from "../../../tests/setup/router-context.ts";
import { createTestDatabase, type TestDatabase, testDialect } from "../../../tests/setup/test-db.ts";
import { addAdmins } from "../../server/accounts/admins.server.ts";
import { nowIso } from "../../server/db/db.server.ts";
import { publishedPageBySlug } from "../../server/pages/pages.server.ts";
import { loader as contactLoader } from "../pages/contact.tsx";
import { action as pageAction, loader as pageLoader } from "../pages/static-page.tsx";
import { action as menusAction, loader as menusLoader } from "./menus.tsx";
import { action as formAction, loader as formLoader } from "./page-form.tsx";
import { action as listAction, loader as listLoader } from "./pages.tsx";

// The pages and menus screens (issue 48, decision 035), called as React Router calls them:
// admins only, every refusal a field error and nothing written, and readers get the page at
// its address in each language.

let database: TestDatabase;
const { get, post } = fakeSessionRequests(() => database);

const OWNER: FakeUser = { id: "", email: "owner@example.test", emailVerified: true };
const READER: FakeUser = { id: "", email: "reader@example.test", emailVerified: true };

const page = (extra: Record<string, string> = {}) => ({
  slug: "now",
  status: "published",
  titleEn: "Now",
  titleZh: "近况",
  bodyEn: "What I do **now**.",
  bodyZh: "我现在做的事。",
  ...extra,
});

const pageCount = async () =>
  Number(
    (
      await database.db
        .selectFrom("pages")
        .select((eb) => eb.fn.countAll<number | string>().as("n"))
        .executeTakeFirstOrThrow()
    ).n,
  );

beforeAll(async () => {
  database = await createTestDatabase();
  OWNER.id = await insertUser(database.db, { email: OWNER.email, name: "The Owner" });
  READER.id = await insertUser(database.db, { email: READER.email, name: "A Reader" });
  await addAdmins(database.db, [OWNER.email], "cli");
});

afterAll(async () => {
  await database.cleanup();
});

describe(`the pages screens (${testDialect()})`, () => {
  it("are for admins only, reading and writing", async () => {
    for (const user of [READER, null]) {
      for (const [handler, args] of [
        [listLoader, get("/admin/pages", user)],
        [formLoader, get("/admin/pages/new", user)],
        [formAction, post("/admin/pages/new", user, page())],
        [menusLoader, get("/admin/menus", user)],
        [menusAction, post("/admin/menus?menu=main&lang=en", user, { intent: "reset" })],
      ] as const) {
        const reply = await callRoute(handler, args);
        expect([302, 403]).toContain(reply.status);
        if (reply.status === 302) expect(reply.location).toMatch(/^\/login/);
      }
    }
    expect(await pageCount()).toBe(3);
    expect(await database.db.selectFrom("menus").selectAll().execute()).toEqual([]);
  });

  it("refuse a reserved address, another page's and a redirect's on the address field, writing nothing", async () => {
    const now = nowIso();
    await database.db
      .insertInto("redirects")
      .values({ id: "r-old", fromPath: "/zh/old-home", toPath: "/", createdAt: now, updatedAt: now })
      .execute();
    for (const [slug, key] of [
      ["posts", "adminPages:errors.slugReserved"],
      ["search", "adminPages:errors.slugReserved"],
      ["about", "adminPages:errors.slugReserved"],
      ["old-home", "adminPages:errors.slugRedirected"],
      ["Not A Slug", "adminPages:errors.slugPattern"],
    ] as const) {
      const reply = await callRoute(formAction, post("/admin/pages/new", OWNER, page({ slug })));
      expect(reply.status, slug).toBe(400);
      expect((reply.body as { fieldErrors: Record<string, string> }).fieldErrors.slug, slug).toBe(key);
    }
    expect(await pageCount()).toBe(3);
  });

  it("create a page at its address, shown to readers in each language", async () => {
    const created = await callRoute(formAction, post("/admin/pages/new", OWNER, page()));
    expect(created.status).toBe(302);
    expect(created.location).toMatch(/^\/admin\/pages\/[0-9a-z]{20}$/);
    const again = await callRoute(formAction, post("/admin/pages/new", OWNER, page({ titleEn: "Twice" })));
    expect((again.body as { fieldErrors: Record<string, string> }).fieldErrors.slug).toBe(
      "adminPages:errors.slugTaken",
    );

    for (const [path, title] of [
      ["/en/now", "Now"],
      ["/zh/now", "近况"],
    ] as const) {
      const reply = await callRoute(pageLoader, get(path, null, { slug: "now" }));
      expect(reply.status, path).toBe(200);
      expect((reply.body as { page: { title: string } }).page.title).toBe(title);
    }
    expect((await callRoute(pageLoader, get("/en/nowhere", null, { slug: "nowhere" }))).status).toBe(404);
    expect((await callRoute(pageAction, post("/en/now", null, {}))).status).toBe(404);

    // A draft is nobody's page but the admin's.
    const stored = await publishedPageBySlug(database.db, "now");
    if (!stored) throw new Error("not stored");
    const drafted = await callRoute(
      formAction,
      post(`/admin/pages/${stored.id}`, OWNER, page({ status: "draft", version: String(stored.version) }), {
        id: stored.id,
      }),
    );
    expect(drafted.status).toBe(302);
    expect((await callRoute(pageLoader, get("/now", null, { slug: "now" }))).status).toBe(404);
    const opened = await callRoute(formLoader, get(`/admin/pages/${stored.id}`, OWNER, { id: stored.id }));
    expect((opened.body as { values: { status: string } }).values.status).toBe("draft");
  });

  it("keep About, Contact and Privacy, which cannot be deleted, and the contact page shows its text", async () => {
    const about = await publishedPageBySlug(database.db, "about");
    if (!about) throw new Error("no about page");
    const refused = await callRoute(
      listAction,
      post("/admin/pages", OWNER, { intent: "delete", id: about.id, back: "/admin/pages" }),
    );
    expect(refused.status).toBe(400);
    expect(await publishedPageBySlug(database.db, "about")).toBeDefined();
    const contact = await callRoute(contactLoader, get("/zh/contact", null));
    expect((contact.body as { page: { title: string; html: string } }).page).toMatchObject({ title: "联系" });
    expect((await callRoute(pageLoader, get("/en/privacy", null))).status).toBe(200);
  });
});

describe(`the menus screen (${testDialect()})`, () => {
  it("adds, moves, labels and removes items with plain form posts, and goes back to the default", async () => {
    const created = await callRoute(
      formAction,
      post("/admin/pages/new", OWNER, page({ slug: "uses", titleEn: "Uses" })),
    );
    expect(created.status).toBe(302);
    const uses = await publishedPageBySlug(database.db, "uses");
    if (!uses) throw new Error("no page");
    const path = "/admin/menus?menu=main&lang=en";
    const send = (fields: Record<string, string>) => callRoute(menusAction, post(path, OWNER, fields));
    const shown = async () => {
      const reply = await callRoute(menusLoader, get(path, OWNER));
      return reply.body as { custom: boolean; preview: Array<{ href: string; label: string }> };
    };

    expect((await shown()).custom).toBe(false);
    expect((await send({ intent: "add", addTarget: `page:${uses.id}`, addLabel: "" })).status).toBe(302);
    expect((await shown()).preview.map((i) => i.label)).toEqual(["Home", "All blogs", "Uses"]);

    // An address needs a label and a safe address; nothing is written otherwise.
    const noLabel = await send({ intent: "add", addTarget: "url:", addUrl: "https://shop.example/", addLabel: "" });
    expect(noLabel.status).toBe(400);
    expect((noLabel.body as { fieldErrors: Record<string, string> }).fieldErrors.addLabel).toBeDefined();
    const evil = await send({ intent: "add", addTarget: "url:", addUrl: "javascript:alert(1)", addLabel: "x" });
    expect((evil.body as { fieldErrors: Record<string, string> }).fieldErrors.addUrl).toBeDefined();
    expect((await shown()).preview).toHaveLength(3);

    expect((await send({ intent: "up:2", "label-2": "My tools" })).status).toBe(302);
    expect((await shown()).preview.map((i) => [i.href, i.label])).toEqual([
      ["/", "Home"],
      ["/uses", "My tools"],
      ["/posts", "All blogs"],
    ]);
    expect((await send({ intent: "reorder", order: "2,0,1" })).status).toBe(302);
    expect((await shown()).preview.map((i) => i.href)).toEqual(["/posts", "/", "/uses"]);
    expect((await send({ intent: "reorder", order: "0,0,1" })).status).toBe(400);
    expect((await send({ intent: "remove:0" })).status).toBe(302);
    expect((await shown()).preview.map((i) => i.href)).toEqual(["/", "/uses"]);

    // The Chinese main menu was never touched: still the default.
    const zh = await callRoute(menusLoader, get("/admin/menus?menu=main&lang=zh", OWNER));
    expect((zh.body as { custom: boolean }).custom).toBe(false);

    expect((await send({ intent: "reset" })).status).toBe(302);
    expect((await shown()).preview.map((i) => i.href)).toEqual(["/", "/posts"]);
  });
});
