import { ensureHandle } from "../../app/server/accounts/profiles.server.ts";
import type { DB } from "../../app/server/db/db.server.ts";
import type { Locale, PostStatus } from "../../app/server/db/schema.server.ts";
import { newId } from "../../app/server/platform/ids.server.ts";
import { type PostLife, SYSTEM, withPostLifecycle } from "../../app/server/posts/lifecycle.server.ts";
import { renderMarkdown } from "../../app/server/render/markdown.server.ts";
import { type RenderedPost, readingMinutes } from "../../app/server/render/post-outline.server.ts";
import { renderPost } from "../../app/server/render/post-render.server.ts";
import { reindexPost } from "../../app/server/search/index.server.ts";
import { createCategory, ensureTags, findCategoryBySlug, slugify } from "../../app/server/taxonomy/taxonomy.server.ts";
import {
  DEMO_CATEGORIES,
  DEMO_COMMENTS,
  DEMO_SNIPPETS,
  DEMO_TABLES,
  DEMO_TAGS,
  DEMO_TOPICS,
  type DemoTopic,
} from "./content.ts";
import { DEMO_SUBJECTS, LONGFORM_PER_POST, LONGFORM_SECTIONS, type LongformSection } from "./longform.ts";
import { SHOWCASE_SLUG, showcaseTranslations } from "./showcase.ts";

/** The demo author's e-mail; its presence marks a database as seeded. */
export const DEMO_EMAIL = "demo@example.invalid";
export const DEFAULT_DEMO_POSTS = 24;
export const MAX_DEMO_POSTS = 100_000;
/** Posts written per transaction: one fsync per batch instead of several per post. */
const BATCH_SIZE = 100;
const SEED = 20261122;
const DAY_MS = 24 * 60 * 60 * 1000;

export class SeedRefused extends Error {
  override name = "SeedRefused";
}

export interface SeedOptions {
  posts?: number;
  /** Seed again even though the demo author exists (new posts get fresh slugs). */
  force?: boolean;
  now?: Date;
}

export interface SeedResult {
  userId: string;
  categories: number;
  tags: number;
  posts: number;
  published: number;
  drafts: number;
  scheduled: number;
  comments: number;
}

/** mulberry32: a small, fast PRNG; good enough to vary demo content reproducibly. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(rand: () => number, list: readonly T[]): T => list[Math.floor(rand() * list.length)] as T;

function partSuffix(part: number, locale: Locale): string {
  if (part === 1) return "";
  return locale === "en" ? ` (part ${part})` : `（第${part}篇）`;
}

export interface Layout {
  snippet: (typeof DEMO_SNIPPETS)[number];
  table: (typeof DEMO_TABLES)[number];
  reversed: boolean;
  withQuote: boolean;
  /** The reflective sections that make the post long (from ./longform.ts), in order. */
  longform: readonly LongformSection[];
}

/** Picks LONGFORM_PER_POST of the long-form sections, in an order drawn from `rand`. */
export function pickLongform(rand: () => number): LongformSection[] {
  const pool = [...LONGFORM_SECTIONS];
  for (let i = pool.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [pool[i], pool[j]] = [pool[j] as LongformSection, pool[i] as LongformSection];
  }
  return pool.slice(0, LONGFORM_PER_POST);
}

/**
 * One language version's Markdown in blocks that render on their own: the topic's
 * intro and sections, each long-form section, then the numbers, quote and links.
 * Joined with "\n" they are the whole post; seed renders each block
 * once and reuses it, which makes 10,000 long posts quick to seed.
 */
export function demoMarkdownBlocks(topic: DemoTopic, locale: Locale, layout: Layout): string[] {
  const sections = layout.reversed ? [...topic.sections].reverse() : topic.sections;
  const head: string[] = [topic.intro[locale], ""];
  sections.forEach((section, index) => {
    head.push(`## ${section.heading[locale]}`, "");
    for (const p of section.paragraphs) head.push(p[locale], "");
    if (section.list) {
      head.push(`### ${section.list.heading[locale]}`, "");
      for (const item of section.list.items) head.push(`- ${item[locale]}`);
      head.push("");
    }
    if (index === 0) {
      head.push(layout.snippet.caption[locale], "", `\`\`\`${layout.snippet.lang}`, layout.snippet.code, "```", "");
    }
  });
  const subject = DEMO_SUBJECTS[topic.key]?.[locale] ?? topic.title[locale];
  const longform = layout.longform.map((section) => {
    const lines = [`## ${section.heading[locale]}`, ""];
    for (const p of section.paragraphs) lines.push(p[locale].replaceAll("{subject}", subject), "");
    return lines;
  });
  const { table } = layout;
  const tail: string[] = [`## ${locale === "en" ? "In numbers" : "数据一览"}`, "", table.caption[locale], ""];
  tail.push(`| ${table.head.map((h) => h[locale]).join(" | ")} |`, `| ${table.head.map(() => "---").join(" | ")} |`);
  for (const row of table.rows) tail.push(`| ${row.map((c) => c[locale]).join(" | ")} |`);
  tail.push("");
  if (layout.withQuote) tail.push(`> ${topic.quote[locale]}`, "");
  tail.push(`## ${locale === "en" ? "Further reading" : "延伸阅读"}`, "");
  for (const link of topic.links) tail.push(`- [${link.label[locale]}](${link.url})`);
  tail.push(
    locale === "en" ? "- [About this blog](/about), and how to get in touch" : "- [关于本博客](/about)，以及联系方式",
    "",
  );
  return [head, ...longform, tail].map((lines) => lines.join("\n"));
}

/**
 * Renders a post from its blocks, each block once per seed (the same HTML, table
 * of contents and reading time as rendering the whole Markdown: a test holds
 * that). Without it, rendering ~1,500 words twice per post takes ~60 ms.
 */
export function blockRenderer(): (blocks: string[], locale: Locale) => Promise<RenderedPost> {
  const cache = new Map<string, Promise<RenderedPost>>();
  return async (blocks, locale) => {
    const rendered = await Promise.all(
      blocks.map((block) => {
        const key = `${locale}\0${block}`;
        let found = cache.get(key);
        if (!found) {
          found = renderPost(block, locale);
          cache.set(key, found);
        }
        return found;
      }),
    );
    return {
      html: rendered.map((r) => r.html).join("\n"),
      toc: rendered.flatMap((r) => r.toc),
      readingMinutes: readingMinutes(blocks.join("\n")),
    };
  };
}

/** Which languages post `i` has: most both, some only English, some only Chinese. */
function languagesOf(i: number): Locale[] {
  if (i % 8 === 5) return ["en"];
  if (i % 8 === 2) return ["zh"];
  return ["en", "zh"];
}

/** Post 0 is scheduled, posts 3 and 10 are drafts, the rest are published. */
function statusOf(i: number): PostStatus {
  if (i === 0) return "scheduled";
  if (i === 3 || i === 10) return "draft";
  return "published";
}

async function uniqueSlug(db: DB, base: string): Promise<string> {
  for (let n = 1; ; n++) {
    const slug = n === 1 ? base : `${base}-${n}`;
    const taken = await db.selectFrom("posts").select("id").where("slug", "=", slug).executeTakeFirst();
    if (!taken) return slug;
  }
}

async function demoAuthor(db: DB, force: boolean, now: string): Promise<string> {
  const existing = await db.selectFrom("users").select("id").where("email", "=", DEMO_EMAIL).executeTakeFirst();
  if (existing && !force) {
    throw new SeedRefused(`demo content is already there (${DEMO_EMAIL} exists); use --force to add more`);
  }
  if (existing) return existing.id;
  // A user row with no account: nobody can sign in as the demo author.
  const id = newId();
  await db
    .insertInto("users")
    .values({
      id,
      name: "Demo Author",
      email: DEMO_EMAIL,
      emailVerified: 1,
      image: null,
      bio: "Writes the demo posts, in English and in Chinese.",
      createdAt: now,
      updatedAt: now,
    })
    .execute();
  // The byline links to the author page (/authors/demo-author).
  await ensureHandle(db, id);
  return id;
}

async function demoCategories(db: DB): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  for (const [sortOrder, c] of DEMO_CATEGORIES.entries()) {
    const found = await findCategoryBySlug(db, c.slug);
    ids.set(c.slug, found?.id ?? (await createCategory(db, { slug: c.slug, nameEn: c.en, nameZh: c.zh, sortOrder })));
  }
  return ids;
}

async function demoTags(db: DB, now: string): Promise<Map<string, string>> {
  const ids = await ensureTags(
    db,
    DEMO_TAGS.map((t) => t.en),
  );
  const byKey = new Map<string, string>();
  for (const [index, tag] of DEMO_TAGS.entries()) {
    const id = ids[index];
    if (!id) continue;
    byKey.set(tag.slug, id);
    // ensureTags names a new tag the same in both languages; give it its Chinese name.
    await db
      .updateTable("tags")
      .set({ nameZh: tag.zh, updatedAt: now })
      .where("id", "=", id)
      .where("nameZh", "=", tag.en)
      .execute();
  }
  return byKey;
}

/**
 * Creates the demo author, ~6 categories, ~20 tags, `posts` bilingual posts (some
 * in one language only, two drafts, one scheduled) and some approved comments.
 * Refuses when the demo author exists, unless `force`.
 */
export async function seedDemo(db: DB, options: SeedOptions = {}): Promise<SeedResult> {
  const count = options.posts ?? DEFAULT_DEMO_POSTS;
  if (!Number.isInteger(count) || count < 0 || count > MAX_DEMO_POSTS) {
    throw new SeedRefused(`--posts must be a whole number from 0 to ${MAX_DEMO_POSTS}`);
  }
  const nowDate = options.now ?? new Date();
  const now = nowDate.toISOString();
  const rand = prng(SEED);
  const userId = await demoAuthor(db, options.force ?? false, now);
  const categories = await demoCategories(db);
  const tags = await demoTags(db, now);

  const result: SeedResult = {
    userId,
    categories: categories.size,
    tags: tags.size,
    posts: 0,
    published: 0,
    drafts: 0,
    scheduled: 0,
    comments: 0,
  };
  // Published posts spread over the last ~6 months, newest first.
  const spacingMs = (180 * DAY_MS) / Math.max(1, count);

  const render = blockRenderer();

  // Batches of posts per transaction (with synchronous=FULL every commit waits for
  // the disk). Posts are still made one after another, drawing from `rand` in the
  // same order, so the same N gives the same posts.
  for (let from = 0; from < count; from += BATCH_SIZE) {
    const to = Math.min(count, from + BATCH_SIZE);
    await withPostLifecycle(db, SYSTEM, async (life) => {
      for (let i = from; i < to; i++) {
        await seedPost(life, i);
      }
    });
  }
  if (await seedShowcase(db, { authorId: userId, categoryId: categories.get("frontend") ?? null, now: nowDate })) {
    result.posts++;
    result.published++;
  }
  return result;

  async function seedPost(life: PostLife, i: number): Promise<void> {
    const { trx } = life;
    const topic = DEMO_TOPICS[i % DEMO_TOPICS.length] as DemoTopic;
    const part = Math.floor(i / DEMO_TOPICS.length) + 1;
    const locales = languagesOf(i);
    const status = statusOf(i);
    const layout: Layout = {
      snippet: pick(rand, DEMO_SNIPPETS),
      table: pick(rand, DEMO_TABLES),
      reversed: rand() < 0.3,
      withQuote: rand() < 0.8,
      // Its own PRNG per post, so adding long-form text left the rest of the demo as it was.
      longform: pickLongform(prng(SEED + 7919 * (i + 1))),
    };
    const jitterMs = Math.floor(rand() * 10 * 60 * 60 * 1000);
    const date = new Date(
      status === "scheduled" ? nowDate.getTime() + 7 * DAY_MS : nowDate.getTime() - (i + 0.5) * spacingMs - jitterMs,
    ).toISOString();
    const extraTag = pick(rand, DEMO_TAGS).slug;
    const tagIds = [...new Set([...topic.tags, extraTag])].flatMap((key) => tags.get(key) ?? []);
    const withCover = rand() < 0.4;
    const slug = await uniqueSlug(trx, slugify(`${topic.title.en}${partSuffix(part, "en")}`) || topic.key);

    const postId = await life.create(
      {
        slug,
        authorId: userId,
        status,
        publishedAt: status === "draft" ? null : date,
        categoryId: categories.get(topic.category) ?? null,
        tagIds,
        coverImageUrl: withCover ? "/social.jpg" : null,
        coverAlt: withCover ? "The blog's default picture" : "",
        featured: i === 1,
        translations: await Promise.all(
          locales.map(async (locale) => {
            const blocks = demoMarkdownBlocks(topic, locale, layout);
            const rendered = await render(blocks, locale);
            return {
              locale,
              title: `${topic.title[locale]}${partSuffix(part, locale)}`,
              summary: topic.summary[locale],
              bodyMarkdown: blocks.join("\n"),
              bodyHtml: rendered.html,
              tocJson: JSON.stringify(rendered.toc),
              readingMinutes: rendered.readingMinutes,
            };
          }),
        ),
      },
      { indexed: true },
    );
    // Look like posts written over time rather than all just now.
    const written = status === "scheduled" ? now : date;
    await trx
      .updateTable("posts")
      .set({ createdAt: written, updatedAt: written, viewCount: status === "published" ? Math.floor(rand() * 900) : 0 })
      .where("id", "=", postId)
      .execute();
    await trx
      .updateTable("postTranslations")
      .set({ createdAt: written, updatedAt: written })
      .where("postId", "=", postId)
      .execute();

    result.posts++;
    if (status === "published") result.published++;
    else if (status === "draft") result.drafts++;
    else result.scheduled++;

    if (status === "published" && rand() < 0.4) {
      result.comments += await demoComments(trx, rand, postId, userId, date, locales);
    }
    await reindexPost(trx, postId);
  }
}

/** One or two approved comments (sometimes a reply) by the demo author. */
async function demoComments(
  db: DB,
  rand: () => number,
  postId: string,
  authorId: string,
  publishedAt: string,
  locales: Locale[],
): Promise<number> {
  const locale = locales.length > 1 ? pick(rand, locales) : (locales[0] ?? "en");
  const howMany = rand() < 0.5 ? 1 : 2;
  let parentId: string | null = null;
  for (let n = 0; n < howMany; n++) {
    const body = pick(rand, DEMO_COMMENTS)[locale];
    const at = new Date(new Date(publishedAt).getTime() + (n + 1) * 5 * 60 * 60 * 1000).toISOString();
    const id = newId();
    await db
      .insertInto("comments")
      .values({
        id,
        postId,
        authorId,
        // The second comment answers the first (one level of replies).
        parentId: n === 1 ? parentId : null,
        bodyMarkdown: body,
        bodyHtml: renderMarkdown(body),
        status: "approved",
        createdAt: at,
        updatedAt: at,
      })
      .execute();
    parentId = id;
  }
  return howMany;
}

/**
 * The style-guide post (./showcase.ts), once per database: both languages, published an
 * hour before the newest demo post, so it is near the top of the home page without
 * becoming the newest post the benchmarks open. False when it was there already.
 */
export async function seedShowcase(
  db: DB,
  opts: { authorId: string | null; categoryId: string | null; now: Date },
): Promise<boolean> {
  const taken = await db.selectFrom("posts").select("id").where("slug", "=", SHOWCASE_SLUG).executeTakeFirst();
  if (taken) return false;
  const newest = await db
    .selectFrom("posts")
    .select("publishedAt")
    .where("status", "=", "published")
    .where("publishedAt", "<=", opts.now.toISOString())
    .orderBy("publishedAt", "desc")
    .limit(1)
    .executeTakeFirst();
  const base = newest?.publishedAt ? Date.parse(newest.publishedAt) : opts.now.getTime();
  const at = new Date(base - 60 * 60 * 1000).toISOString();
  const translations = await showcaseTranslations();
  await withPostLifecycle(db, SYSTEM, async (life) => {
    const { trx } = life;
    const postId = await life.create(
      {
        slug: SHOWCASE_SLUG,
        authorId: opts.authorId,
        status: "published",
        publishedAt: at,
        categoryId: opts.categoryId,
        tagIds: [],
        coverImageUrl: null,
        coverAlt: "",
        featured: false,
        translations,
      },
      { indexed: true },
    );
    await trx.updateTable("posts").set({ createdAt: at, updatedAt: at }).where("id", "=", postId).execute();
    await trx
      .updateTable("postTranslations")
      .set({ createdAt: at, updatedAt: at })
      .where("postId", "=", postId)
      .execute();
    await reindexPost(trx, postId);
  });
  return true;
}
