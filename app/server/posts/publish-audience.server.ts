import type { PublishAudience, SubscriberGroup } from "../../lib/writing/publish-reach.ts";
import type { DB } from "../db/db.server.ts";
import type { CountValue } from "../db/query.server.ts";
import { countFollowers } from "../federation/store.server.ts";

// Who a post would reach if it went live now, for the editor's publish dialog (issue 47):
// the subscribers a newsletter would mail (confirmed, not bounced; the newsletter worker's
// own filter in newsletter/sends.server.ts), grouped by how their version is chosen, and
// each Fediverse account's followers (the blocked ones left out) when federation is on.
// "On" is the federation service's own status (the admin switch, FEDERATION and an https
// PUBLIC_URL), not the switch alone: with the switch on and an http address nothing is sent,
// and the dialog must not say it is.

export async function publishAudience(db: DB, federation: { on: boolean }): Promise<PublishAudience> {
  const rows = await db
    .selectFrom("subscribers")
    .select((eb) => ["languages", "locale", eb.fn.countAll<CountValue>().as("n")])
    .where("status", "=", "confirmed")
    .where("bouncedAt", "is", null)
    .groupBy(["languages", "locale"])
    .execute();
  const subscribers: SubscriberGroup[] = rows.map((row) => ({
    languages: row.languages,
    locale: row.locale,
    count: Number(row.n),
  }));
  if (!federation.on) return { subscribers, followers: null };
  const [en, zh] = await Promise.all([countFollowers(db, "en"), countFollowers(db, "zh")]);
  return { subscribers, followers: { en, zh } };
}
