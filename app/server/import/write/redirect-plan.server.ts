import type { Transaction } from "kysely";
import { checkTarget, fromKey, normalizeFrom, type RedirectKey } from "../../../lib/redirects.ts";
import type { Database, Locale } from "../../db/schema.server.ts";
import type { RedirectCandidate } from "../../redirects/redirects.server.ts";
import type { RuleSet } from "../../redirects/rules.server.ts";
import { ensureTags } from "../../taxonomy/taxonomy.server.ts";
import type { ImportedPost, ImportReportLine } from "../core.server.ts";
import type { ChunkLookups } from "../job/types.server.ts";
import { mappedAuthorHandle } from "./authors.server.ts";
import { ensureCategory } from "./posts.server.ts";

// The redirect planner: which old addresses of a written post (its page, its tags' and
// category's pages, its author's page, the blog's feeds) get a redirect to which page here,
// each old address once a chunk and never over a rule already stored. The candidates are
// written together at the end of the chunk (redirects.server.ts).

/** What the redirects of one chunk share: the stored rules, the addresses taken so far, the report, the result. */
export interface RedirectScope {
  rules: RuleSet;
  /** The old addresses (fromKey) that a candidate or a stored rule already answers in this chunk. */
  taken: Set<string>;
  lines: ImportReportLine[];
  candidates: RedirectCandidate[];
  /** The item each candidate came from (by fromKey), for the report line of one refused. */
  labels: Map<string, string>;
}

/**
 * Adds the redirect from one old address of `post` to `target` (asked only when the address is
 * not taken yet; one the site answers itself is refused, and noted, when the chunk's redirects
 * are written), unless: the address is malformed (noted, unless `noteInvalid` is false) or
 * taken already, there is no target or it is not a site path, a stored rule has the address
 * (noted when that rule points elsewhere), or it is the path `except` (the page itself). An
 * address with a usable target is taken from then on, even when no redirect is added.
 */
async function addRedirect(
  url: string,
  target: (from: RedirectKey) => string | null | Promise<string | null>,
  post: ImportedPost,
  scope: RedirectScope,
  { noteInvalid = true, except }: { noteInvalid?: boolean; except?: string } = {},
): Promise<void> {
  const from = normalizeFrom(url);
  if (!from.ok) {
    if (noteInvalid)
      scope.lines.push({ item: post.label, outcome: "note", reason: "redirectInvalid", detail: url.slice(0, 200) });
    return;
  }
  const key = fromKey(from);
  if (scope.taken.has(key)) return;
  const to = await target(from);
  const checked = to === null ? null : checkTarget(to, false);
  if (!checked?.ok) return;
  scope.taken.add(key);
  const stored = scope.rules.get(from);
  if (stored) {
    if (stored.to !== checked.target)
      scope.lines.push({ item: post.label, outcome: "note", reason: "redirectExists", detail: key });
    return;
  }
  if (from.path === except) return;
  scope.labels.set(key, post.label);
  scope.candidates.push({
    line: 0,
    fromPath: from.path,
    fromQuery: from.query,
    to: checked.target,
    status: 301,
    external: false,
  });
}

/**
 * The redirects from a written post's old addresses to its page (under /en or /zh when the old
 * address was), skipping addresses that cannot be redirected and ones another row already has.
 */
async function addPostRedirects(scope: RedirectScope, post: ImportedPost, postId: string): Promise<void> {
  const locales = new Set(post.translations.map((t) => t.locale));
  const page = `/posts/detail/${postId}`;
  const target = (from: RedirectKey) => {
    const prefix = /^\/(en|zh)(\/|$)/.exec(from.path)?.[1] as Locale | undefined;
    return `${prefix && locales.has(prefix) ? `/${prefix}` : ""}${page}`;
  };
  for (const url of post.oldUrls) await addRedirect(url, target, post, scope, { except: page });
}

/**
 * Redirects for the old addresses of a written post's tags (`/tag/{slug}/` → `/tags/{our slug}`),
 * each address once: a tag shared by many posts is redirected by the first one written.
 */
async function addTagRedirects(trx: Transaction<Database>, scope: RedirectScope, post: ImportedPost): Promise<void> {
  for (const { from: url, tag } of post.tagUrls ?? []) {
    const target = async () => {
      // The post's tags were made (or found) by writePost: this finds the same row.
      const [tagId] = await ensureTags(trx, [tag]);
      const row = tagId
        ? await trx.selectFrom("tags").select("slug").where("id", "=", tagId).executeTakeFirst()
        : undefined;
      return row ? `/tags/${encodeURIComponent(row.slug)}` : null;
    };
    await addRedirect(url, target, post, scope);
  }
}

/**
 * Redirects for the old addresses of a written post's category (`/category/{path}/` →
 * `/categories/{our slug}`), each address once, like the tags'.
 */
async function addCategoryRedirects(
  trx: Transaction<Database>,
  scope: RedirectScope,
  post: ImportedPost,
): Promise<void> {
  const [first] = post.categories;
  if (!first) return;
  const target = async () => {
    // writePost made (or found) this category: the same row.
    const id = await ensureCategory(trx, first.slice(0, 100));
    const row = await trx.selectFrom("categories").select("slug").where("id", "=", id).executeTakeFirst();
    return row ? `/categories/${encodeURIComponent(row.slug)}` : null;
  };
  for (const url of post.categoryUrls ?? []) await addRedirect(url, target, post, scope);
}

/**
 * Redirects for the old page of a written post's author (Ghost's `/author/{slug}/` →
 * `/authors/{handle}`), each address once, like the tags'.
 */
async function addAuthorRedirects(
  trx: Transaction<Database>,
  scope: RedirectScope,
  kind: string,
  post: ImportedPost,
  known: ChunkLookups,
): Promise<void> {
  const author = post.author;
  if (!author || author.oldUrls.length === 0) return;
  const handle = await mappedAuthorHandle(trx, kind, author.sourceId, known);
  if (!handle) return;
  const page = `/authors/${encodeURIComponent(handle)}`;
  // Without a page to send them to, the old addresses are not read (nor noted).
  if (!checkTarget(page, false).ok) return;
  for (const url of author.oldUrls) await addRedirect(url, () => page, post, scope);
}

/** Redirects for a source's site-wide old addresses (its feeds), each once; none over a stored rule. */
async function addSiteRedirects(scope: RedirectScope, post: ImportedPost): Promise<void> {
  for (const { from: url, to } of post.siteUrls ?? [])
    await addRedirect(url, () => to, post, scope, { noteInvalid: false });
}

/**
 * Plans the redirects of one written page (decision 035, "Importing pages"): its old addresses to
 * `/{slug}` (under /en or /zh when the old address was and the page has that language; none from
 * the page's own address), and the site's, which ride on the first item whatever it is.
 */
export async function planPageRedirects(scope: RedirectScope, post: ImportedPost, slug: string): Promise<void> {
  const locales = new Set(post.translations.map((t) => t.locale));
  const target = (from: RedirectKey) => {
    const prefix = /^\/(en|zh)(\/|$)/.exec(from.path)?.[1] as Locale | undefined;
    const to = `${prefix && locales.has(prefix) ? `/${prefix}` : ""}/${slug}`;
    return from.path === to && from.query === "" ? null : to;
  };
  for (const url of post.oldUrls) await addRedirect(url, target, post, scope);
  await addSiteRedirects(scope, post);
}

/** Plans the redirects of one written post: its own old addresses, its tags', category's and author's, and the site's. */
export async function planRedirects(
  trx: Transaction<Database>,
  scope: RedirectScope,
  kind: string,
  post: ImportedPost,
  postId: string,
  known: ChunkLookups,
): Promise<void> {
  await addPostRedirects(scope, post, postId);
  await addTagRedirects(trx, scope, post);
  await addCategoryRedirects(trx, scope, post);
  await addAuthorRedirects(trx, scope, kind, post, known);
  await addSiteRedirects(scope, post);
}
