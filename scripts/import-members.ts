import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import { pino } from "pino";
import type { DB } from "../app/server/db/db.server.ts";
import type { Locale } from "../app/server/db/schema.server.ts";
import { INSTANCE_ID } from "../app/server/jobs/lease.server.ts";
import { type ImportFileRead, readSubscriberCsv } from "../app/server/newsletter/subscriber-csv.server.ts";
import { queueSubscriberImport } from "../app/server/newsletter/subscriber-import.server.ts";
import { startSubscriberImports } from "../app/server/newsletter/subscriber-import-job.server.ts";

// `import:ghost --members <members.csv>`: Ghost's members become subscribers through the
// subscriber import (decision 011), once the posts are imported.

const MEMBERS_MAX_BYTES = 50 * 1024 * 1024;

/** Reads a Ghost members CSV with the subscriber import's reader (decision 011); a message when refused. */
export async function readMembers(file: string, lang: Locale): Promise<ImportFileRead | string> {
  const info = await stat(file).catch(() => null);
  if (!info?.isFile()) return `not a file: ${file}`;
  if (info.size > MEMBERS_MAX_BYTES) return `the members file is larger than 50 MB (${info.size} bytes)`;
  const result = readSubscriberCsv(new Uint8Array(await readFile(file)), lang);
  if (!result.ok) return `the members file is refused: ${result.error.code}`;
  const { ok: _ok, ...read } = result;
  return read;
}

export const membersLine = (r: ImportFileRead) =>
  `${r.candidates.length} to subscribe, ${r.notSubscribed} not subscribed to e-mails, ${r.duplicates} duplicate(s), ${r.invalid} invalid`;

/** Queues the members as a subscriber import and works it through to the end. */
export async function importMembers(
  db: DB,
  actor: { id: string; email: string },
  file: string,
  read: ImportFileRead,
  lang: Locale,
) {
  const id = await queueSubscriberImport(db, actor, { fileName: path.basename(file), defaultLanguages: lang, read });
  const log = pino({ level: "silent" });
  const worker = startSubscriberImports(db, log, { intervalMs: 1000, holder: `cli:${INSTANCE_ID}` });
  try {
    for (;;) {
      const job = await db.selectFrom("subscriberImports").selectAll().where("id", "=", id).executeTakeFirst();
      if (!job) throw new Error("the members import disappeared");
      if (job.status === "done" || job.status === "failed") {
        console.log(
          `members ${job.status}: ${job.imported} subscribed, ${job.existing} already on the list, ` +
            `${job.notSubscribed} not subscribed to e-mails, ${job.duplicates} duplicate(s), ${job.invalid} invalid`,
        );
        return job.status === "done" ? 0 : 1;
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  } finally {
    await worker.stop();
  }
}
