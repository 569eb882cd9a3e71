// Part of the database's one interface (`../schema.server.ts`): The site's settings and furniture (carousel, links, ads, menus), job leases, the content version, and Insights' counters.
import type { ColumnType } from "kysely";
import type { Timestamp } from "./common.server.ts";

/** Which instance runs a scheduled job, until when (renewed on every run). */
export interface JobLeasesTable {
  name: string;
  holder: string;
  expiresAt: Timestamp;
  updatedAt: Timestamp;
}

/** One row (id 1): bumped by every content change, polled by every instance. */
export interface ContentVersionTable {
  id: number;
  version: number;
  updatedAt: Timestamp;
}

/** What the bump to `version` touched: "*" (everything) or space-separated page tags. */
export interface ContentChangesTable {
  version: number;
  tags: string;
  createdAt: Timestamp;
}

export interface SiteSettingsTable {
  key: string;
  /** JSON. */
  value: string;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

/** Home page carousel slides ("swapers", docs/conventions.md, "Words the product uses"). */
export interface SwapersTable {
  id: string;
  titleEn: ColumnType<string, string | undefined, string>;
  titleZh: ColumnType<string, string | undefined, string>;
  /** Absolute http(s) URL or site-relative path. */
  imageUrl: string;
  imageAlt: ColumnType<string, string | undefined, string>;
  /** Where a click goes: http(s) URL or site-relative path; null = not a link. */
  linkUrl: string | null;
  sortOrder: ColumnType<number, number | undefined, number>;
  enabled: ColumnType<number, number | undefined, number>;
  /** Optional time window; null = open-ended. */
  startsAt: Timestamp | null;
  endsAt: Timestamp | null;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

export interface LinksTable {
  id: string;
  name: string;
  /** Absolute http(s) URL. */
  url: string;
  /** http(s) URL or site-relative path; null = no logo. */
  logoUrl: string | null;
  description: ColumnType<string, string | undefined, string>;
  sortOrder: ColumnType<number, number | undefined, number>;
  enabled: ColumnType<number, number | undefined, number>;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

export type AdPlacement = "home_top" | "sidebar" | "post_bottom" | "list_between";

export type AdKind = "image" | "text";

/**
 * Advertisements: plain text or an image, never HTML; clicks go through /ads/{id}/click.
 * The content has an English version (`title`, `text`, `imageUrl`, `imageAlt`: the old
 * names) and a Chinese one (`…Zh`); an empty title means that version is missing.
 */
export interface AdsTable {
  id: string;
  placement: AdPlacement;
  kind: AdKind;
  /** English title ("" = no English version). */
  title: string;
  /** Plain text (at most 200 characters), escaped when shown. */
  text: ColumnType<string, string | undefined, string>;
  /** http(s) URL or site-relative path (image ads). */
  imageUrl: string | null;
  imageAlt: ColumnType<string, string | undefined, string>;
  /** Chinese title ("" = no Chinese version). */
  titleZh: ColumnType<string, string | undefined, string>;
  textZh: ColumnType<string, string | undefined, string>;
  imageUrlZh: ColumnType<string | null, string | null | undefined, string | null>;
  imageAltZh: ColumnType<string, string | undefined, string>;
  /** Absolute http(s) URL: the only place /ads/{id}/click redirects to. */
  linkUrl: string;
  enabled: ColumnType<number, number | undefined, number>;
  startsAt: Timestamp | null;
  endsAt: Timestamp | null;
  /** 1–100: the chance of being picked among the placement's active ads. */
  weight: ColumnType<number, number | undefined, number>;
  impressions: ColumnType<number, number | undefined, number>;
  clicks: ColumnType<number, number | undefined, number>;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

/** Insights: how often something happened on a UTC day (docs/decisions/021-insights.md). */
export interface InsightCountsTable {
  /** "YYYY-MM-DD", UTC. */
  day: string;
  /** What is counted: "views", "visitors", "post", "page", "lang", "referrer", "source", "country", "search" … */
  metric: string;
  /** Which one ("" for a day's total). */
  key: string;
  count: ColumnType<number, number | undefined, number>;
}

/** A day's unique-visitor hashes (salted with that day's salt), deleted once the day is counted. */
export interface InsightVisitorsTable {
  day: string;
  hash: string;
}

/** Each day's random salt for visitor hashes, shared by every instance and deleted after the day. */
export interface InsightSaltsTable {
  day: string;
  salt: string;
  createdAt: string;
}

/** A menu of one language ("main:en", "footer:zh"): its items as JSON; no row = the default menu. */
export interface MenusTable {
  key: string;
  items: string;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}
