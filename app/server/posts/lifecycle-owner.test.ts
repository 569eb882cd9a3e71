import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// The post lifecycle (lifecycle.server.ts) is the only writer of posts.status
// (docs/decisions/026-post-lifecycle.md). This scan reads every source file that ships or seeds
// data and fails on any other write to the column: a Kysely update or insert of the posts table
// whose columns name `status`, one whose columns it cannot read (an object built elsewhere, a
// spread of a variable), or raw SQL that updates or inserts into "posts". Tests are left out:
// their fixtures may write rows as another process would (tests/setup/raw-post.ts).

const ROOT = path.resolve(import.meta.dirname, "../../..");
const SCANNED = ["app", "scripts", "bench", "server.ts"];
const OWNER = "app/server/posts/lifecycle.server.ts";

function sourceFiles(rel: string): string[] {
  const full = path.join(ROOT, rel);
  if (/\.(ts|tsx|mts)$/.test(rel)) return [rel];
  let entries: import("node:fs").Dirent[];
  try {
    entries = readdirSync(full, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((e) => {
    const child = `${rel}/${e.name}`;
    if (e.isDirectory()) return e.name === "node_modules" || e.name.startsWith("+") ? [] : sourceFiles(child);
    return /\.(ts|tsx|mts)$/.test(e.name) && !/\.(test|spec)\.tsx?$/.test(e.name) ? [child] : [];
  });
}

/** The text from `open` (an index just after an opening bracket) to its closing bracket. */
function balanced(source: string, open: number): string {
  let depth = 0;
  for (let i = open; i < source.length; i++) {
    const c = source[i];
    if (c === "(" || c === "{" || c === "[") depth++;
    else if (c === ")" || c === "}" || c === "]") {
      if (depth === 0) return source.slice(open, i);
      depth--;
    }
  }
  return source.slice(open);
}

const POSTS_WRITE = /\b(updateTable|insertInto|replaceInto|mergeInto)\(\s*["'`]posts(\s+as\s+\w+)?["'`]\s*\)/g;
const RAW_WRITE = /\b(update|insert\s+into|replace\s+into)\s+"posts"/gi;
const COLUMNS = /\.(set|values|doUpdateSet)\(/g;

/** Where `source` writes posts.status, or writes posts columns the scan cannot read; empty when it does neither. */
function statusWrites(source: string): string[] {
  const found: string[] = [];
  const line = (at: number) => source.slice(0, at).split("\n").length;
  for (const m of source.matchAll(RAW_WRITE)) found.push(`line ${line(m.index)}: raw SQL ${m[0]}`);
  for (const m of source.matchAll(POSTS_WRITE)) {
    const from = m.index + m[0].length;
    const end = source.indexOf(".execute", from);
    const chain = source.slice(from, end < 0 ? undefined : end);
    for (const c of chain.matchAll(COLUMNS)) {
      const columns = balanced(chain, c.index + c[0].length).trim();
      const where = `line ${line(from + c.index)}: ${m[1]}("posts").${c[1]}(…)`;
      if (/["'`]?\bstatus\b["'`]?\s*[:,}]/.test(columns) || /^status\b/.test(columns))
        found.push(`${where} writes status`);
      // Columns the scan cannot see: an object made elsewhere, or a variable spread into one.
      else if (/^[A-Za-z_$]/.test(columns) || /\.\.\.\s*[A-Za-z_$][\w$.]*\s*[,})\n]/.test(columns))
        found.push(`${where} has columns this scan cannot read; spell them out`);
    }
  }
  return found;
}

describe("the post lifecycle owns posts.status", () => {
  it("finds status writes, and columns it cannot read, in the shapes code takes", () => {
    const flagged = [
      `db.updateTable("posts").set({ status: "published" }).where("id", "=", id).execute()`,
      `trx.updateTable("posts").set((eb) => ({ updatedAt: now, status, version: eb("version", "+", 1) })).execute()`,
      `db.updateTable("posts as p").set({ "status": to }).execute()`,
      `db.insertInto("posts").values({ id, slug, status: "draft" }).execute()`,
      `db.insertInto("posts").values(row).execute()`,
      `db.updateTable("posts").set(changes).where("id", "=", id).execute()`,
      `db.updateTable("posts").set({ ...changes, updatedAt: now }).execute()`,
      `db.insertInto("posts").values({ id }).onConflict((oc) => oc.column("id").doUpdateSet({ status: "draft" })).execute()`,
      'await sql`update "posts" set "status" = \'published\'`.execute(db)',
      "await sql`INSERT INTO \"posts\" (id, status) values (1, 'draft')`.execute(db)",
    ];
    for (const source of flagged) expect(statusWrites(source), source).not.toEqual([]);
    const fine = [
      `db.updateTable("posts").set({ viewCount: sql\`"viewCount" + 1\` }).where("status", "=", "published").execute()`,
      `db.updateTable("posts").set((eb) => ({ version: eb("version", "+", 1), ...(on ? { featured: 1 } : {}) })).execute()`,
      `db.selectFrom("posts").select("status").where("status", "=", "draft").execute()`,
      `db.updateTable("postImports").set({ status: "done" }).execute()`,
      `db.insertInto("postTranslations").values(rows).execute()`,
    ];
    for (const source of fine) expect(statusWrites(source), source).toEqual([]);
  });

  it("is the only module that writes it", () => {
    const files = SCANNED.flatMap(sourceFiles).filter((f) => f !== OWNER);
    // The scan reads the real tree (a wrong root would pass on nothing).
    expect(files).toContain("app/server/posts/post-editor.server.ts");
    expect(statusWrites(readFileSync(path.join(ROOT, OWNER), "utf8"))).not.toEqual([]);
    const offenders = files.flatMap((f) =>
      statusWrites(readFileSync(path.join(ROOT, f), "utf8")).map((w) => `${f} ${w}`),
    );
    expect(offenders).toEqual([]);
  });
});
