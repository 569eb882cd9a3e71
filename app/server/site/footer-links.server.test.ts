import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../tests/setup/test-db.ts";
import { forgetPostCounts, POST_COUNTS_TTL_MS } from "../posts/post-counts.server.ts";
import { cachedFooterLinks } from "./footer-links.server.ts";
import { createLink, FOOTER_LINKS } from "./links.server.ts";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.cleanup();
});

describe("cachedFooterLinks", () => {
  it("reads the enabled links once per time limit, and afresh after a content change", async () => {
    const { db } = database;
    forgetPostCounts(db);
    const t0 = 5_000_000;
    expect(await cachedFooterLinks(db, t0)).toEqual([]);
    await createLink(db, { name: "Rust weekly", url: "https://rust.example/" });
    await createLink(db, { name: "Hidden", url: "https://hidden.example/", enabled: false });
    // Within the limit the page view costs no query: the kept answer comes back.
    expect(await cachedFooterLinks(db, t0 + 1)).toEqual([]);
    // An admin write calls content.changed(), which forgets the kept answer.
    forgetPostCounts(db);
    expect((await cachedFooterLinks(db, t0 + 2)).map((l) => l.name)).toEqual(["Rust weekly"]);
  });

  it("keeps at most the footer's number of links", async () => {
    const { db } = database;
    for (let i = 0; i < FOOTER_LINKS + 2; i++) await createLink(db, { name: `L${i}`, url: `https://l${i}.example/` });
    forgetPostCounts(db);
    expect(await cachedFooterLinks(db, 1)).toHaveLength(FOOTER_LINKS);
    expect(await cachedFooterLinks(db, 1 + POST_COUNTS_TTL_MS)).toHaveLength(FOOTER_LINKS);
  });
});
