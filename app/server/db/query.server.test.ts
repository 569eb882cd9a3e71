import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../tests/setup/test-db.ts";
import { createLink } from "../site/links.server.ts";
import { containsText, countRows, likePattern } from "./query.server.ts";

// isUniqueViolation is exercised against both dialects' real errors in
// app/server/posts/post-editor.server.test.ts.

describe("likePattern", () => {
  it("takes %, _ and \\ in a search literally, case-folded", () => {
    expect(likePattern("50%_off\\")).toBe("%50\\%\\_off\\\\%");
    expect(likePattern("ABC")).toBe("%abc%");
  });
});

describe("containsText and countRows, on the test database's dialect", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
    const links = [
      ["Rust Weekly", "https://rust.example.test", "news"],
      ["Go Time", "https://go.example.test", "a 100% podcast"],
      ["Deno", "https://deno.example.test", "RUST inside"],
      ["under_score", "https://u.example.test", ""],
    ];
    for (const [name, url, description] of links) {
      await createLink(database.db, { name: name ?? "", url: url ?? "", description });
    }
  });
  afterAll(async () => {
    await database.cleanup();
  });

  const names = async (q: string) =>
    (
      await database.db
        .selectFrom("links")
        .select("name")
        .where(containsText(["name", "description"], q))
        .orderBy("name")
        .execute()
    ).map((row) => row.name);

  it("matches any of the columns, whatever the case", async () => {
    expect(await names("rust")).toEqual(["Deno", "Rust Weekly"]);
    expect(await names("TIME")).toEqual(["Go Time"]);
  });

  it("takes LIKE's wildcards literally", async () => {
    expect(await names("%")).toEqual(["Go Time"]);
    expect(await names("_")).toEqual(["under_score"]);
    expect(await names("r_st")).toEqual([]);
  });

  it("counts what a query finds, whatever columns it had chosen", async () => {
    const all = database.db.selectFrom("links");
    expect(await countRows(all)).toBe(4);
    expect(await countRows(all.select(["name", "url"]).where(containsText(["name", "description"], "rust")))).toBe(2);
    expect(await countRows(all.where("name", "=", "nobody"))).toBe(0);
  });
});
