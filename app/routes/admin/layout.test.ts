import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertComment, insertUser } from "../../../tests/setup/fixtures-db.ts";
import { callRoute, fakeSessionAuth, testRouterContext } from "../../../tests/setup/router-context.ts";
import { createTestDatabase, type TestDatabase } from "../../../tests/setup/test-db.ts";
import { addAdmins } from "../../server/accounts/admins.server.ts";
import type { Services } from "../../server/boot/context.server.ts";
import type { CommentStatus } from "../../server/db/schema.server.ts";
import { createPost } from "../../server/posts/posts.server.ts";
import { loader } from "./layout.tsx";

// The admin layout's loader: the admin check, the number of comments waiting for
// moderation that the sidebar shows beside "Comments", and the name the bar shows.

const BASE = "http://blog.test";
const ADMIN = { id: "", email: "admin@example.test", name: "Ada Lovelace" };
const READER = { id: "", email: "reader@example.test" };

let database: TestDatabase;
let postId: string;

beforeAll(async () => {
  database = await createTestDatabase();
  ADMIN.id = await insertUser(database.db, { email: ADMIN.email });
  READER.id = await insertUser(database.db, { email: READER.email });
  await addAdmins(database.db, [ADMIN.email], "cli");
  postId = await createPost(database.db, {
    slug: "layout-post",
    authorId: null,
    status: "published",
    publishedAt: "2026-11-01T00:00:00.000Z",
    translations: [{ locale: "en", title: "Post" }],
  });
});

afterAll(async () => {
  await database.cleanup();
});

async function addComment(status: CommentStatus) {
  await insertComment(database.db, { postId, authorId: READER.id, body: "hi", status });
}

function load(user: { id: string; email: string; name?: string } | null) {
  return callRoute(loader, {
    request: new Request(`${BASE}/admin`, { headers: user ? { cookie: "inkwell.session_token=fake" } : {} }),
    context: testRouterContext({
      db: database.db,
      env: { authSecret: "s".repeat(40), publicUrl: BASE } as Services["env"],
      log: pino({ level: "silent" }),
      auth: fakeSessionAuth(user),
    }),
  });
}

describe("admin layout loader", () => {
  it("counts only the comments waiting for moderation", async () => {
    expect(await load(ADMIN)).toMatchObject({ status: 200, body: { pendingComments: 0 } });
    await addComment("pending");
    await addComment("pending");
    await addComment("pending");
    await addComment("approved");
    await addComment("hidden");
    await addComment("spam");
    expect(await load(ADMIN)).toMatchObject({ status: 200, body: { pendingComments: 3 } });
  });

  it("gives the bar the admin's display name, never their address", async () => {
    expect(await load(ADMIN)).toMatchObject({ body: { displayName: "Ada Lovelace", siteName: "Inkwell" } });
    // An account without a name (only a row written outside the app) shows no address either.
    const nameless = await load({ ...ADMIN, name: "  " });
    expect(nameless).toMatchObject({ body: { displayName: null } });
  });

  it("answers 403 to a reader and sends a stranger to the login page", async () => {
    expect((await load(READER)).status).toBe(403);
    const stranger = await load(null);
    expect(stranger.status).toBe(302);
    expect(stranger.location).toMatch(/^\/login\?redirectTo=/);
  });
});
