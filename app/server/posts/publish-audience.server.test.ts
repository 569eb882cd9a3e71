import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../tests/setup/test-db.ts";
import { nowIso } from "../db/db.server.ts";
import type { SubscriberLanguages, SubscriberStatus } from "../db/schema.server.ts";
import { federationStatus } from "../federation/service.server.ts";
import { addFollower } from "../federation/store.server.ts";
import { publishAudience } from "./publish-audience.server.ts";

// The publish dialog's counts: the subscribers a newsletter would mail now and the followers
// of each Fediverse account, as the editor's loader reads them.

let database: TestDatabase;

async function subscriber(
  id: string,
  opts: { languages: SubscriberLanguages; locale: "en" | "zh"; status?: SubscriberStatus; bounced?: boolean },
) {
  const at = nowIso();
  await database.db
    .insertInto("subscribers")
    .values({
      id,
      email: `${id}@example.test`,
      locale: opts.locale,
      languages: opts.languages,
      status: opts.status ?? "confirmed",
      confirmTokenHash: `c-${id}`,
      unsubscribeTokenHash: `u-${id}`,
      confirmedAt: at,
      unsubscribedAt: null,
      bouncedAt: opts.bounced ? at : null,
      createdAt: at,
      updatedAt: at,
    })
    .execute();
}

beforeAll(async () => {
  database = await createTestDatabase();
  await subscriber("a", { languages: "en", locale: "en" });
  await subscriber("b", { languages: "en", locale: "zh" });
  await subscriber("c", { languages: "both", locale: "zh" });
  await subscriber("d", { languages: "zh", locale: "zh", status: "pending" });
  await subscriber("e", { languages: "zh", locale: "zh", bounced: true });
  await subscriber("f", { languages: "zh", locale: "en", status: "unsubscribed" });
  for (const [actor, n] of [
    ["en", 2],
    ["zh", 1],
  ] as const) {
    for (let i = 0; i < n; i += 1) {
      await addFollower(database.db, {
        actor,
        followerUri: `https://social.example/users/${actor}${i}`,
        inboxUrl: `https://social.example/users/${actor}${i}/inbox`,
        sharedInboxUrl: null,
        handle: `${actor}${i}`,
        name: `${actor}${i}`,
        server: "social.example",
      });
    }
  }
});

afterAll(async () => {
  await database.cleanup();
});

describe("publishAudience", () => {
  it("counts confirmed subscribers who are not bounced, by languages and site language", async () => {
    const audience = await publishAudience(database.db, { on: false });
    const groups = [...audience.subscribers].sort((x, y) =>
      `${x.languages}${x.locale}`.localeCompare(`${y.languages}${y.locale}`),
    );
    expect(groups).toEqual([
      { languages: "both", locale: "zh", count: 1 },
      { languages: "en", locale: "en", count: 1 },
      { languages: "en", locale: "zh", count: 1 },
    ]);
  });

  it("counts each account's followers only when federation is on, not when only its switch is", async () => {
    const https = "https://blog.example";
    expect(
      (await publishAudience(database.db, federationStatus({ federation: null, publicUrl: https }, false))).followers,
    ).toBeNull();
    // The admin switch on, but an http address: nothing is sent, so nobody is counted.
    const http = federationStatus({ federation: null, publicUrl: "http://blog.example" }, true);
    expect((await publishAudience(database.db, http)).followers).toBeNull();
    const on = federationStatus({ federation: null, publicUrl: https }, true);
    expect((await publishAudience(database.db, on)).followers).toEqual({ en: 2, zh: 1 });
  });
});
