import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeUser, fakeSessionRequests } from "../../../tests/setup/route-requests.ts";
import { callRoute } from "../../../tests/setup/router-context.ts";
import { createTestDatabase, type TestDatabase } from "../../../tests/setup/test-db.ts";
import { addAdmins } from "../../server/accounts/admins.server.ts";
import { createPost } from "../../server/posts/posts.server.ts";
import { loader, parsePageParam } from "./home.tsx";

describe("parsePageParam", () => {
  it.each([
    [undefined, 1],
    ["1", 1],
    ["42", 42],
    ["0", null],
    ["-1", null],
    ["01", null],
    ["1.5", null],
    ["1e9", null],
    ["abc", null],
    ["9999999999", null],
    ["999999999", 999999999],
  ])("%s → %s", (raw, expected) => expect(parsePageParam(raw)).toBe(expected));
});

describe("the home page of a site without posts", () => {
  let database: TestDatabase;
  const { get } = fakeSessionRequests(() => database);
  const OWNER: FakeUser = { id: "home-owner", email: "owner@example.test", emailVerified: true };
  const READER: FakeUser = { id: "home-reader", email: "reader@example.test", emailVerified: true };

  beforeAll(async () => {
    database = await createTestDatabase();
    await addAdmins(database.db, [OWNER.email], "cli");
  });
  afterAll(async () => {
    await database.cleanup();
  });

  it("shows its owner where to start, and readers a friendly word", async () => {
    const owner = await callRoute(loader, get("/", OWNER));
    expect(owner.status).toBe(200);
    expect(owner.body).toMatchObject({ owner: true, page: { total: 0 } });
    for (const user of [READER, null]) {
      const reader = await callRoute(loader, get("/zh", user));
      expect(reader.body).toMatchObject({ owner: false, page: { total: 0 } });
    }
  });

  it("asks nobody once a post is out", async () => {
    await createPost(database.db, {
      slug: "first",
      authorId: null,
      status: "published",
      publishedAt: "2026-11-01T00:00:00.000Z",
      translations: [{ locale: "en", title: "First" }],
    });
    const owner = await callRoute(loader, get("/", OWNER));
    expect(owner.body).toMatchObject({ owner: false, page: { total: 1 } });
  });
});
