import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { insertUser } from "../../../tests/setup/fixtures-db.ts";
import { createTestDatabase, type TestDatabase } from "../../../tests/setup/test-db.ts";
import { addAdmins, listAdminMailboxes } from "./admins.server.ts";

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.cleanup();
});
beforeEach(async () => {
  for (const table of ["admins", "users"] as const) await database.db.deleteFrom(table).execute();
});

describe("listAdminMailboxes", () => {
  it("gives every listed admin, with the language their account last used or null", async () => {
    const zhId = await insertUser(database.db, { email: "Mei@Example.test", name: "Mei", emailVerified: true });
    await database.db.updateTable("users").set({ locale: "zh" }).where("id", "=", zhId).execute();
    await insertUser(database.db, { email: "ann@example.test", name: "Ann", emailVerified: true });
    await insertUser(database.db, { email: "reader@example.test", name: "Reader", emailVerified: true });
    await addAdmins(database.db, ["mei@example.test", "ann@example.test", "env-only@example.test"], "env");

    expect(await listAdminMailboxes(database.db)).toEqual([
      { email: "ann@example.test", locale: null },
      { email: "env-only@example.test", locale: null },
      { email: "mei@example.test", locale: "zh" },
    ]);
  });
});
