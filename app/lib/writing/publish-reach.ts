import type { Locale } from "../i18n/locale.ts";

// Who a post reaches when it goes live, as the editor's publish dialog says it (issue 47):
// the subscribers each language version is mailed to, and the Fediverse followers each
// version is shared with. The counts come from the database through the editor's loader
// (server/posts/publish-audience.server.ts); which versions the post has is the form's.

/** Subscribers who would be mailed now, grouped as the newsletter picks their version. */
export interface SubscriberGroup {
  languages: "en" | "zh" | "both";
  /** Their site language: which version a subscriber of both languages gets. */
  locale: Locale;
  count: number;
}

export interface PublishAudience {
  subscribers: SubscriberGroup[];
  /** Followers of each language's Fediverse account; null when federation is off. */
  followers: Record<Locale, number> | null;
}

/**
 * Which version of a post a subscriber gets, or null when the post has none in their
 * languages (the newsletter's rule: their language, or for both, their site language first).
 */
export function versionFor(
  subscriber: { languages: "en" | "zh" | "both"; locale: Locale },
  available: readonly Locale[],
): Locale | null {
  if (subscriber.languages !== "both") return available.includes(subscriber.languages) ? subscriber.languages : null;
  if (available.includes(subscriber.locale)) return subscriber.locale;
  return available[0] ?? null;
}

/** How many subscribers get each version of a post that has the `available` versions. */
export function mailedPerVersion(
  groups: readonly SubscriberGroup[],
  available: readonly Locale[],
): Record<Locale, number> {
  const counts: Record<Locale, number> = { en: 0, zh: 0 };
  for (const group of groups) {
    const version = versionFor(group, available);
    if (version) counts[version] += group.count;
  }
  return counts;
}

/** How many followers each version is shared with (none without federation or the box). */
export function sharedPerVersion(
  followers: PublishAudience["followers"],
  available: readonly Locale[],
  federate: boolean,
): Record<Locale, number> | null {
  if (!followers || !federate) return null;
  return { en: available.includes("en") ? followers.en : 0, zh: available.includes("zh") ? followers.zh : 0 };
}
