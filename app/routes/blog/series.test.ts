import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeUser, fakeSessionRequests, TEST_URL_BASE } from "../../../tests/setup/route-requests.ts";
import { callRoute } from "../../../tests/setup/router-context.ts";
import { createTestDatabase, type TestDatabase, testDialect } from "../../../tests/setup/test-db.ts";
import { addAdmins } from "../../server/accounts/admins.server.ts";
import type { PostDetail } from "../../server/posts/post-detail.server.ts";
import { getSeries } from "../../server/taxonomy/series.server.ts";
import { action as seriesListAction } from "../admin/series.tsx";
import { action as seriesFormAction, loader as seriesFormLoader } from "../admin/series-form.tsx";
import { action as editorAction } from "../posts/editor.tsx";
import { seoFor } from "./post-seo.ts";
import { loader as seriesLoader } from "./series.tsx";

// The series routes as React Router calls them, with a session faked at the auth layer:
// the editor's series fields, /series/{slug}, and the admin's series screens.

const ADMIN: FakeUser = { id: "series-admin", email: "series-admin@example.test", emailVerified: true };
const READER: FakeUser = { id: "series-reader", email: "series-reader@example.test", emailVerified: true };

let database: TestDatabase;
const { contextFor, cookieOf, get: getAs, post } = fakeSessionRequests(() => database);
const get = (path: string, params: Record<string, string>) => getAs(path, null, params);

const postFields = (title: string, extra: Record<string, string>) => ({
  enTitle: title,
  enBody: "Words.",
  zhTitle: `${title}（中）`,
  zhBody: "文字",
  status: "published",
  ...extra,
});

async function postCount(): Promise<number> {
  const rows = await database.db.selectFrom("posts").select("id").execute();
  return rows.length;
}

beforeAll(async () => {
  database = await createTestDatabase();
  await addAdmins(database.db, [ADMIN.email], "cli");
});

afterAll(async () => {
  await database.cleanup();
});

describe(`series routes (${testDialect()})`, () => {
  let seriesId = "";

  it("creates a series from the editor for admins only, and refuses bad series fields with 400", async () => {
    const create = "/posts/createPost";
    expect(
      (await callRoute(editorAction, post(create, READER, postFields("Nope", { seriesId: "new", seriesNameEn: "X" }))))
        .status,
    ).toBe(403);
    const before = await postCount();
    const noName = await callRoute(editorAction, post(create, ADMIN, postFields("Part 1", { seriesId: "new" })));
    expect(noName.status).toBe(400);
    expect((noName.body as { fieldErrors: unknown }).fieldErrors).toEqual({
      seriesNameEn: "editor:errors.seriesNameRequired",
    });
    const badPart = await callRoute(
      editorAction,
      post(create, ADMIN, postFields("Part 1", { seriesId: "new", seriesNameEn: "Guide", seriesPosition: "0" })),
    );
    expect(badPart.status).toBe(400);
    const unknown = await callRoute(
      editorAction,
      post(create, ADMIN, postFields("Part 1", { seriesId: "nosuchseries00000000" })),
    );
    expect((unknown.body as { fieldErrors: unknown }).fieldErrors).toEqual({ seriesId: "editor:errors.seriesUnknown" });
    expect(await postCount()).toBe(before);
    expect(await database.db.selectFrom("series").select("id").execute()).toEqual([]);

    const made = await callRoute(
      editorAction,
      post(create, ADMIN, postFields("Part 1", { seriesId: "new", seriesNameEn: "The Guide", seriesNameZh: "指南" })),
    );
    expect(made.status).toBe(302);
    const series = await database.db.selectFrom("series").selectAll().executeTakeFirstOrThrow();
    expect(series).toMatchObject({ slug: "the-guide", nameEn: "The Guide", nameZh: "指南" });
    seriesId = series.id;
    for (const title of ["Part 2", "Part 3"]) {
      const saved = await callRoute(editorAction, post(create, ADMIN, postFields(title, { seriesId })));
      expect(saved.status).toBe(302);
    }
  });

  it("shows /series/{slug} in both languages with the parts in order, and 404 for an unknown one", async () => {
    const en = await callRoute(seriesLoader, get("/en/series/the-guide", { slug: "the-guide" }));
    expect(en.status).toBe(200);
    const body = en.body as { series: { name: string; parts: Array<{ title: string }> } };
    expect(body.series.name).toBe("The Guide");
    expect(body.series.parts.map((p) => p.title)).toEqual(["Part 1", "Part 2", "Part 3"]);
    const zh = await callRoute(seriesLoader, get("/zh/series/the-guide", { slug: "the-guide" }));
    expect((zh.body as typeof body).series.name).toBe("指南");
    expect((zh.body as typeof body).series.parts[1]?.title).toBe("Part 2（中）");
    expect((await callRoute(seriesLoader, get("/series/nope", { slug: "nope" }))).status).toBe(404);
  });

  it("names the series as isPartOf in the post's JSON-LD", () => {
    const seo = seoFor(
      {
        id: "p1",
        translation: { locale: "zh", title: "T", summary: "", seoTitle: null, seoDescription: null },
        locales: ["zh"],
        tags: [],
        publishedAt: null,
        createdAt: "2026-11-26T00:00:00.000Z",
        updatedAt: "2026-11-26T00:00:00.000Z",
        authorName: null,
        authorHandle: null,
      } as unknown as PostDetail,
      TEST_URL_BASE,
      "Site",
      null,
      { slug: "the-guide", name: "指南" },
    );
    expect(JSON.parse(seo.jsonLd).isPartOf).toEqual({
      "@type": "CreativeWorkSeries",
      name: "指南",
      url: `${TEST_URL_BASE}/zh/series/the-guide`,
    });
  });

  it("edits and deletes series in the admin (admins only); posts leave a deleted series", async () => {
    const edit = `/admin/series/${seriesId}`;
    expect(
      (await callRoute(seriesFormAction, post(edit, READER, { nameEn: "X", nameZh: "Y" }, { id: seriesId }))).status,
    ).toBe(403);
    const renamed = await callRoute(
      seriesFormAction,
      post(
        edit,
        ADMIN,
        { nameEn: "The Guide", nameZh: "指南", slug: "", descriptionEn: "Read in order." },
        { id: seriesId },
      ),
    );
    expect(renamed).toMatchObject({ status: 302, location: "/admin/series" });
    expect(await getSeries(database.db, seriesId)).toMatchObject({
      slug: "the-guide",
      descriptionEn: "Read in order.",
    });
    const form = await callRoute(seriesFormLoader, {
      request: new Request(`${TEST_URL_BASE}/en${edit}`, { headers: cookieOf(ADMIN) }),
      context: contextFor(ADMIN, `/en${edit}`),
      params: { id: seriesId },
    });
    expect((form.body as { parts: Array<{ title: string; seriesPosition: number }> }).parts).toMatchObject([
      { title: "Part 1", seriesPosition: 1 },
      { title: "Part 2", seriesPosition: 2 },
      { title: "Part 3", seriesPosition: 3 },
    ]);
    // A second series may not take the first one's slug.
    const clash = await callRoute(
      seriesFormAction,
      post("/admin/series/new", ADMIN, { nameEn: "Other", nameZh: "其他", slug: "the-guide" }),
    );
    expect(clash.status).toBe(409);

    expect(
      (await callRoute(seriesListAction, post("/admin/series", READER, { intent: "delete", id: seriesId }))).status,
    ).toBe(403);
    const deleted = await callRoute(seriesListAction, post("/admin/series", ADMIN, { intent: "delete", id: seriesId }));
    expect(deleted.status).toBe(302);
    expect(await getSeries(database.db, seriesId)).toBeUndefined();
    const members = await database.db.selectFrom("posts").select("id").where("seriesId", "is not", null).execute();
    expect(members).toEqual([]);
    expect(await postCount()).toBe(3);
    expect((await callRoute(seriesLoader, get("/series/the-guide", { slug: "the-guide" }))).status).toBe(404);
  });
});
