import { type DiffPart, diffText, hasChanges } from "../../lib/text-diff.ts";
import type { Locale } from "../db/schema.server.ts";
import type { RevisionContent } from "./revisions.server.ts";

// What changed between two revisions, as the history's compare page shows it: each
// language's title, summary and body (by word in English, by character in Chinese), and
// the settings that differ.

export type RevisionField = "title" | "summary" | "body";

export interface FieldDiff {
  field: RevisionField;
  parts: DiffPart[];
  changed: boolean;
}

export interface LanguageDiff {
  locale: Locale;
  inA: boolean;
  inB: boolean;
  fields: FieldDiff[];
}

export type RevisionSetting = "slug" | "status" | "category" | "series" | "tags" | "cover" | "coverAlt";

export interface SettingChange {
  setting: RevisionSetting;
  before: string;
  after: string;
}

export interface RevisionComparison {
  languages: LanguageDiff[];
  settings: SettingChange[];
}

export function compareRevisions(
  a: RevisionContent,
  b: RevisionContent,
  categoryName: (id: string | null) => string,
  seriesName: (id: string | null) => string = (id) => id ?? "",
): RevisionComparison {
  const place = (c: RevisionContent) => (c.seriesId ? `${seriesName(c.seriesId)} · ${c.seriesPosition ?? "?"}` : "");
  const languages = (["en", "zh"] as const).map((locale): LanguageDiff => {
    const ta = a.translations[locale];
    const tb = b.translations[locale];
    const field = (name: RevisionField, pick: (t: NonNullable<typeof ta>) => string): FieldDiff => {
      const parts = diffText(ta ? pick(ta) : "", tb ? pick(tb) : "", locale);
      return { field: name, parts, changed: hasChanges(parts) };
    };
    return {
      locale,
      inA: ta !== undefined,
      inB: tb !== undefined,
      fields: [
        field("title", (t) => t.title),
        field("summary", (t) => t.summary),
        field("body", (t) => t.bodyMarkdown),
      ],
    };
  });
  const pairs: Array<[RevisionSetting, string, string]> = [
    ["slug", a.slug, b.slug],
    ["status", a.status, b.status],
    ["category", categoryName(a.categoryId), categoryName(b.categoryId)],
    ["series", place(a), place(b)],
    ["tags", a.tags.join(", "), b.tags.join(", ")],
    ["cover", a.coverImageUrl ?? "", b.coverImageUrl ?? ""],
    ["coverAlt", a.coverAlt, b.coverAlt],
  ];
  const settings = pairs
    .filter(([, before, after]) => before !== after)
    .map(([setting, before, after]) => ({ setting, before, after }));
  return { languages, settings };
}
