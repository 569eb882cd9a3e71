import type { Transaction } from "kysely";
import { handleBase } from "../../../lib/author-profile.ts";
import { cleanDisplayName } from "../../../lib/display-name.ts";
import type { Database } from "../../db/schema.server.ts";
import { newId } from "../../platform/ids.server.ts";
import type { ImportedPost, ImportReportLine } from "../core.server.ts";
import { mappedTarget, rememberTarget } from "../import-sources.server.ts";
import type { ChunkLookups, ImportJob } from "../job/types.server.ts";

// The accounts imported posts' authors become (decision 020, "Ghost authors"), found or made in
// the chunk's transaction and remembered per source author (entity `author`).

/** Where an imported author's account is made: an address no mail reaches and nobody can claim. */
const AUTHOR_EMAIL_DOMAIN = "authors.invalid";

/** The first handle free for a name (the account page's rule: the name's base, then -2, -3…). */
async function freeHandle(trx: Transaction<Database>, name: string, id: string): Promise<string | null> {
  const base = handleBase(name, id);
  for (let n = 1; n < 1000; n++) {
    const candidate = n === 1 ? base : `${base}-${n}`;
    const taken = await trx.selectFrom("users").select("id").where("handle", "=", candidate).executeTakeFirst();
    if (!taken) return candidate;
  }
  return null;
}

/**
 * The account an imported post's author maps to (decision 020, "Ghost authors"): the one this
 * source's author was mapped to before; else an existing account whose verified e-mail is the
 * author's; else a new author account without login (no password, an `.invalid` address, so it
 * cannot sign in, be claimed or get mail), named by the display-name rules. Its handle is made as
 * for any account. Null (no author in the source, or the mapped account is gone and none can be
 * made): the importing account.
 */
export async function importedAuthorId(
  trx: Transaction<Database>,
  job: ImportJob,
  post: ImportedPost,
  lines: ImportReportLine[],
  now: string,
  known: ChunkLookups,
): Promise<string | null> {
  const author = post.author;
  if (!author) return null;
  // Once mapped in this chunk, the next posts would find the same mapping and account.
  const cached = known.authors.get(author.sourceId);
  if (cached !== undefined) return cached;
  const userId = await findOrMakeAuthor(trx, job, post, author, lines, now);
  known.authors.set(author.sourceId, userId);
  return userId;
}

async function findOrMakeAuthor(
  trx: Transaction<Database>,
  job: ImportJob,
  post: ImportedPost,
  author: NonNullable<ImportedPost["author"]>,
  lines: ImportReportLine[],
  now: string,
): Promise<string> {
  const mapped = await mappedTarget(trx, job.kind, "author", author.sourceId);
  if (mapped) {
    const user = await trx.selectFrom("users").select("id").where("id", "=", mapped).executeTakeFirst();
    if (user) return user.id;
  }
  let userId: string | null = null;
  if (author.email) {
    const match = await trx
      .selectFrom("users")
      .select(["id", "name", "handle"])
      .where((eb) => eb(eb.fn("lower", ["email"]), "=", author.email))
      .where("emailVerified", "=", 1)
      .where("banned", "=", 0)
      .executeTakeFirst();
    if (match) {
      userId = match.id;
      if (!match.handle) {
        const handle = await freeHandle(trx, match.name, match.id);
        await trx.updateTable("users").set({ handle }).where("id", "=", match.id).where("handle", "is", null).execute();
      }
      lines.push({ item: post.label, outcome: "note", reason: "authorMatched", detail: author.name || undefined });
    }
  }
  if (!userId) {
    userId = newId();
    const name = cleanDisplayName(author.name) || `author-${userId.slice(-6).toLowerCase()}`;
    const handle = await freeHandle(trx, name, userId);
    await trx
      .insertInto("users")
      .values({
        id: userId,
        name,
        email: `import-${userId.toLowerCase()}@${AUTHOR_EMAIL_DOMAIN}`,
        emailVerified: 0,
        image: null,
        handle,
        createdAt: now,
        updatedAt: now,
      })
      .execute();
    lines.push({ item: post.label, outcome: "note", reason: "authorCreated", detail: name });
  }
  await rememberTarget(trx, { source: job.kind, entity: "author", sourceId: author.sourceId, targetId: userId, now });
  return userId;
}

/** The handle of the account a source author was mapped to (looked up once a chunk), or null. */
export async function mappedAuthorHandle(
  trx: Transaction<Database>,
  kind: string,
  authorSourceId: string,
  known: ChunkLookups,
): Promise<string | null> {
  let handle = known.handles.get(authorSourceId);
  if (handle === undefined) {
    const row = await trx
      .selectFrom("importSources as s")
      .innerJoin("users as u", "u.id", "s.targetId")
      .select("u.handle")
      .where("s.source", "=", kind)
      .where("s.entity", "=", "author")
      .where("s.sourceId", "=", authorSourceId)
      .executeTakeFirst();
    handle = row?.handle ?? null;
    known.handles.set(authorSourceId, handle);
  }
  return handle;
}
