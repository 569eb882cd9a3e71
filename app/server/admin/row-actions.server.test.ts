import { pino } from "pino";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { callRoute, fakeSessionAuth, testRouterContext } from "../../../tests/setup/router-context.ts";
import { createTestDatabase, type TestDatabase } from "../../../tests/setup/test-db.ts";
import { addAdmins } from "../accounts/admins.server.ts";
import type { Services } from "../boot/context.server.ts";
import { createLink, getLink, listLinksForAdmin, moveLink } from "../site/links.server.ts";
import { deleteIntent, moveIntent, refuse, rowActions } from "./row-actions.server.ts";

// The admin lists' row actions, called as React Router calls an action, on a real
// database: who may act, what is written (the change and its audit entry, or
// nothing), and where the admin is sent back to.

const ADMIN = { id: "user-admin", email: "admin@example.test", emailVerified: true };
const READER = { id: "user-reader", email: "reader@example.test", emailVerified: true };
const BASE = "http://blog.test";

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
  await addAdmins(database.db, [ADMIN.email], "cli");
});

afterAll(async () => {
  await database.cleanup();
});

const action = rowActions({
  type: "link",
  listPath: "/admin/links",
  load: getLink,
  title: (link) => link.name,
  intents: {
    move: moveIntent(moveLink),
    delete: deleteIntent((trx, id) => trx.deleteFrom("links").where("id", "=", id).execute()),
    // Refuses before writing anything: nothing is audited.
    refuseEarly: { apply: async () => refuse("admin:errors.orderInvalid", 409) },
  },
});

function post(user: typeof ADMIN | null, fields: Record<string, string>) {
  const body = new FormData();
  for (const [k, v] of Object.entries(fields)) body.set(k, v);
  return {
    request: new Request(`${BASE}/admin/links`, {
      method: "POST",
      body,
      headers: user ? { cookie: "inkwell.session_token=fake" } : {},
    }),
    context: testRouterContext({
      db: database.db,
      dialect: database.dialect,
      env: { authSecret: "s".repeat(40), publicUrl: BASE } as Services["env"],
      log: pino({ level: "silent" }),
      auth: fakeSessionAuth(user),
    }),
  };
}

const auditRows = () =>
  database.db.selectFrom("auditLog").select(["action", "entityId", "details"]).orderBy("createdAt").execute();

let ids: string[] = [];

beforeEach(async () => {
  await database.db.deleteFrom("links").execute();
  await database.db.deleteFrom("auditLog").execute();
  ids = [];
  for (const name of ["First", "Second", "Third"]) {
    ids.push(await createLink(database.db, { name, url: `https://example.test/${name}`, sortOrder: ids.length }));
  }
});

const order = async () =>
  (await listLinksForAdmin(database.db, { page: 1, pageSize: 10 })).items.map((link) => link.name);

describe("admin row actions", () => {
  it("refuses anyone but an admin before reading the form", async () => {
    const visitor = await callRoute(action, post(null, { intent: "delete", id: ids[0] ?? "" }));
    expect(visitor.status).toBe(302);
    expect(visitor.location).toMatch(/^\/login\?redirectTo=/);
    expect((await callRoute(action, post(READER, { intent: "delete", id: ids[0] ?? "" }))).status).toBe(403);
    expect(await order()).toEqual(["First", "Second", "Third"]);
    expect(await auditRows()).toEqual([]);
  });

  it("moves a row, audits it with its title and position, and goes back to the list page it came from", async () => {
    const reply = await callRoute(
      action,
      post(ADMIN, { intent: "move", id: ids[2] ?? "", position: "0", back: "/admin/links?q=t&page=1" }),
    );
    expect(reply.status).toBe(302);
    expect(reply.location).toBe("/admin/links?q=t&page=1");
    expect(await order()).toEqual(["Third", "First", "Second"]);
    const [entry] = await auditRows();
    expect(entry?.action).toBe("link.move");
    expect(entry?.entityId).toBe(ids[2]);
    expect(JSON.parse(String(entry?.details))).toEqual({ title: "Third", position: 0 });
  });

  it("deletes with a flash, and never sends the admin anywhere but the list", async () => {
    const reply = await callRoute(
      action,
      post(ADMIN, { intent: "delete", id: ids[0] ?? "", back: "https://evil.test/admin/links" }),
    );
    expect(reply.status).toBe(302);
    expect(reply.location).toBe("/admin/links");
    expect(reply.headers?.get("set-cookie")).toMatch(/flash/);
    expect(await order()).toEqual(["Second", "Third"]);
    expect((await auditRows()).map((row) => row.action)).toEqual(["link.delete"]);
  });

  it("answers a bad position, a refusal, an unknown intent or a missing row without writing", async () => {
    const cases: Array<[Record<string, string>, number, string]> = [
      [{ intent: "move", id: ids[1] ?? "", position: "-1" }, 400, "admin:errors.orderInvalid"],
      [{ intent: "move", id: ids[1] ?? "", position: "1.5" }, 400, "admin:errors.orderInvalid"],
      [{ intent: "refuseEarly", id: ids[1] ?? "" }, 409, "admin:errors.orderInvalid"],
      [{ intent: "rename", id: ids[1] ?? "" }, 400, "admin:errors.notFound"],
      // Names an object's own properties, not an intent.
      [{ intent: "constructor", id: ids[1] ?? "" }, 400, "admin:errors.notFound"],
      [{ intent: "__proto__", id: ids[1] ?? "" }, 400, "admin:errors.notFound"],
      [{ intent: "delete", id: "no-such-link" }, 404, "admin:errors.notFound"],
      [{ intent: "delete" }, 404, "admin:errors.notFound"],
    ];
    for (const [fields, status, error] of cases) {
      const reply = await callRoute(action, post(ADMIN, fields));
      expect(reply.status, JSON.stringify(fields)).toBe(status);
      expect(reply.body, JSON.stringify(fields)).toEqual({ error });
    }
    expect(await order()).toEqual(["First", "Second", "Third"]);
    expect(await auditRows()).toEqual([]);
  });
});
