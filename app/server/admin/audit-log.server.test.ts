import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertUser } from "../../../tests/setup/fixtures-db.ts";
import { createTestDatabase, type TestDatabase } from "../../../tests/setup/test-db.ts";
import { nowIso } from "../db/db.server.ts";
import { newId } from "../platform/ids.server.ts";
import { createPost } from "../posts/posts.server.ts";
import { audit } from "./audit.server.ts";
import { auditFilterChoices, listAudit } from "./audit-log.server.ts";

// The audit log as the admin reads it (issue 46): people by display name, never the address
// the entry keeps; filters by action and person; the object a link while it exists.

let database: TestDatabase;
const ANY = { action: "", actor: "" };
const people = { ada: "", nameless: "", gone: "", reader: "" };
let postId = "";
let trashedId = "";

beforeAll(async () => {
  database = await createTestDatabase();
  const { db } = database;
  people.ada = await insertUser(db, { email: "ada@example.test", name: "Ada Lovelace" });
  people.nameless = await insertUser(db, { email: "nameless@example.test", name: "  " });
  people.gone = await insertUser(db, { email: "gone@example.test", name: "Gone Admin" });
  people.reader = await insertUser(db, { email: "reader@example.test", name: "Rita Reader" });
  const post = (slug: string) =>
    createPost(db, {
      slug,
      authorId: null,
      status: "draft",
      publishedAt: null,
      translations: [{ locale: "en", title: slug }],
    });
  postId = await post("kept");
  trashedId = await post("trashed");
  await db.updateTable("posts").set({ deletedAt: nowIso() }).where("id", "=", trashedId).execute();

  const ada = { id: people.ada, email: "ada@example.test" };
  await audit(db, ada, "post.update", { type: "post", id: postId }, { title: "Kept post" });
  await audit(db, ada, "post.trash", { type: "post", id: trashedId }, { title: "Trashed post" });
  await audit(db, ada, "ad.delete", { type: "ad", id: newId() }, { title: "Old ad" });
  await audit(db, ada, "user.ban", { type: "user", id: people.reader }, { title: "reader@example.test" });
  await audit(db, { id: people.nameless, email: "nameless@example.test" }, "settings.update", { type: "settings" });
  await audit(db, { id: people.gone, email: "gone@example.test" }, "link.create", { type: "link", id: newId() });
  await audit(db, { id: null, email: "system:scheduler" }, "post.publish", { type: "post", id: postId });
  await db.deleteFrom("users").where("id", "=", people.gone).execute();
});

afterAll(async () => {
  await database.cleanup();
});

describe("listAudit", () => {
  it("names people by display name, never by address, and jobs by what they are", async () => {
    const page = await listAudit(database.db, { filters: ANY, page: 1, pageSize: 50 });
    expect(page.total).toBe(7);
    const by = new Map(page.items.map((e) => [e.action, e.actor]));
    expect(by.get("post.update")).toEqual({ kind: "user", id: people.ada, name: "Ada Lovelace" });
    expect(by.get("settings.update")).toEqual({ kind: "user", id: people.nameless, name: null });
    expect(by.get("link.create")).toEqual({ kind: "deleted", id: people.gone });
    expect(by.get("post.publish")).toEqual({ kind: "system", job: "system:scheduler" });
    expect(JSON.stringify(page.items)).not.toContain("@example.test");
  });

  it("links what still exists, and says what is gone", async () => {
    const { items } = await listAudit(database.db, { filters: ANY, page: 1, pageSize: 50 });
    const of = (action: string) => items.find((e) => e.action === action);
    expect(of("post.update")).toMatchObject({ title: "Kept post", href: `/posts/edit/${postId}`, gone: false });
    // A post in the trash is not edited there: named, not linked.
    expect(of("post.trash")).toMatchObject({ title: "Trashed post", href: null, gone: true });
    expect(of("ad.delete")).toMatchObject({ title: "Old ad", href: null, gone: true });
    // An entry about an account names the account, not the address it recorded.
    expect(of("user.ban")).toMatchObject({ title: "Rita Reader", href: null, gone: false });
    expect(of("settings.update")).toMatchObject({ title: null, href: null, gone: false });
  });

  it("filters by action and by person, a job included, and pages newest first", async () => {
    const { db } = database;
    const ada = await listAudit(db, { filters: { action: "", actor: people.ada }, page: 1, pageSize: 50 });
    expect(ada.items.map((e) => e.action).sort()).toEqual(["ad.delete", "post.trash", "post.update", "user.ban"]);
    const job = await listAudit(db, { filters: { action: "", actor: "system:scheduler" }, page: 1, pageSize: 50 });
    expect(job.items.map((e) => e.action)).toEqual(["post.publish"]);
    const both = await listAudit(db, { filters: { action: "post.update", actor: people.ada }, page: 1, pageSize: 50 });
    expect(both.total).toBe(1);
    const none = await listAudit(db, {
      filters: { action: "post.update", actor: "system:scheduler" },
      page: 1,
      pageSize: 50,
    });
    expect(none).toMatchObject({ items: [], total: 0, page: 1, pageCount: 1 });

    const first = await listAudit(db, { filters: ANY, page: 1, pageSize: 3 });
    const last = await listAudit(db, { filters: ANY, page: 99, pageSize: 3 });
    expect(first.pageCount).toBe(3);
    expect(last.page).toBe(3);
    expect(last.items).toHaveLength(1);
    const all = [...first.items, ...(await listAudit(db, { filters: ANY, page: 2, pageSize: 3 })).items, ...last.items];
    expect(new Set(all.map((e) => e.id)).size).toBe(7);
    const times = all.map((e) => e.createdAt);
    expect([...times].sort().reverse()).toEqual(times);
  });
});

describe("auditFilterChoices", () => {
  it("offers every action in the log and everyone who wrote an entry, by name", async () => {
    const choices = await auditFilterChoices(database.db);
    expect(choices.actions).toEqual([
      "ad.delete",
      "link.create",
      "post.publish",
      "post.trash",
      "post.update",
      "settings.update",
      "user.ban",
    ]);
    expect(choices.actors.map((a) => a.value).sort()).toEqual(
      [people.ada, people.gone, people.nameless, "system:scheduler"].sort(),
    );
    expect(JSON.stringify(choices)).not.toContain("@example.test");
  });
});
