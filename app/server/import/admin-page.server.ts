import { mkdir, rm } from "node:fs/promises";
import path from "node:path";
import { IMPORT_LANGS } from "../../lib/post-import.ts";
import type { Actor } from "../admin/audit.server.ts";
import type { Services } from "../boot/context.server.ts";
import { readForm } from "../http/form.server.ts";
import { saveSingleFile } from "../media/multipart.server.ts";
import { newId } from "../platform/ids.server.ts";
import type { ImportCounts, ImportReportLine } from "./core.server.ts";
import { startPostImportPlan } from "./job/dry-run.server.ts";
import {
  appendPostImportPayloads,
  beginPostImport,
  cancelPostImport,
  confirmPostImport,
  dropReadingImports,
  finishPostImportRead,
} from "./job/queue.server.ts";
import { savePostImportPlan } from "./job/report.server.ts";
import { imageResolverFor } from "./job/worker.server.ts";
import { MARKDOWN_FILE_MAX_BYTES, pagesFolderParts } from "./markdown-folder.server.ts";
import type { UploadRefusal } from "./upload-check.server.ts";
import { sniffImport } from "./upload-kind.server.ts";
import { uploadZipBudget } from "./zip.server.ts";

// The admin Import page's writes (app/routes/admin/import.tsx, docs/decisions/020-importers.md):
// `upload` (multipart: a zip of a Markdown blog with its optional `pagesFolder`, or a Ghost or WordPress export with its `lang`,
// told apart by content) is saved, checked off this thread and stored as a staged import, and
// answered with its dry-run report; nothing is imported yet. `confirm` starts a staged import;
// `cancel` drops it and its unpacked files. The upload limit applies.

/** Report lines the page shows per import. */
export const IMPORT_LINES_SHOWN = 50;

export type ImportRefusal =
  | "noFile"
  | "tooLarge"
  | "badForm"
  | "unknownFormat"
  | "noPosts"
  | "pagesFolderInvalid"
  | UploadRefusal;

export type ImportAnswer =
  | { ok: true; id: string; label: string; counts: ImportCounts; report: ImportReportLine[] }
  | { ok: false; error: ImportRefusal; detail?: string };

/** What the route answers: a page to go to, or the answer to show with its status. */
export type ImportPageResult = { redirect: string } | { status: number; answer: ImportAnswer };

type PageServices = Pick<Services, "db" | "env" | "uploadChecks" | "postImports">;

const refuse = (error: ImportRefusal, status = 400, detail?: string): ImportPageResult => ({
  status,
  answer: { ok: false, error, ...(detail ? { detail } : {}) },
});

/** The admin's upload, confirm or cancel (the caller has checked that `admin` is an admin). */
export async function importPageAction(app: PageServices, admin: Actor, request: Request): Promise<ImportPageResult> {
  const { db, env, postImports } = app;
  const importsDir = path.join(env.dataDir, "imports");
  if (/^multipart\/form-data;/i.test(request.headers.get("content-type") ?? "")) {
    await mkdir(importsDir, { recursive: true });
    // Written to disk as it arrives (never held whole), read by the check's worker, removed after.
    const saved = path.join(importsDir, `upload-${newId()}`);
    const upload = await saveSingleFile(request, env.uploadMaxBytes, saved);
    if (!upload.ok) {
      if (upload.reason === "too-large") return refuse("tooLarge", 413);
      return refuse(upload.reason === "no-file" ? "noFile" : "badForm");
    }
    try {
      return await checkUploaded(app, admin, { ...upload, file: saved });
    } finally {
      await rm(saved, { force: true });
    }
  }
  const form = await readForm(request);
  const id = String(form.get("id") ?? "");
  const intent = form.get("intent");
  if (intent === "confirm") {
    if (!(await confirmPostImport(db, id, admin.id))) return refuse("badForm");
    postImports.poke();
    return { redirect: "/admin/import#imports" };
  }
  if (intent === "cancel") {
    const rootDir = await cancelPostImport(db, id, admin.id);
    const dir = rootDir ? unpackedDir(importsDir, rootDir) : null;
    if (dir) await rm(dir, { recursive: true, force: true });
    return { redirect: "/admin/import" };
  }
  return refuse("badForm");
}

/** The folder an unpacked zip lives in (`imports/zip-…`), from the folder imported (it or a folder in it). */
function unpackedDir(importsDir: string, rootDir: string): string | null {
  const rel = path.relative(importsDir, rootDir).split(path.sep)[0] ?? "";
  return rel.startsWith("zip-") || rel.startsWith("ghost-") || rel.startsWith("wordpress-")
    ? path.join(importsDir, rel)
    : null;
}

/**
 * The dry run of a saved upload: its check (unpacking, parsing, the pure checks of each post)
 * runs on the upload checker's worker thread (upload-check.server.ts); this thread stores each
 * batch of checked posts in a `reading` import and looks them up for the report. A refused
 * upload leaves no import and no files.
 */
async function checkUploaded(
  app: PageServices,
  admin: Actor,
  upload: { file: string; fileName: string; head: Buffer; fields: Record<string, string> },
): Promise<ImportPageResult> {
  const { db, env, uploadChecks } = app;
  const importsDir = path.join(env.dataDir, "imports");
  if (upload.fields.intent !== "upload") return refuse("badForm");
  const lang = upload.fields.lang ?? "auto";
  const fetchRemoteField = upload.fields.fetchRemote;
  if (fetchRemoteField !== undefined && fetchRemoteField !== "on") return refuse("badForm");
  const fetchRemote = fetchRemoteField === "on";
  if (!(IMPORT_LANGS as readonly string[]).includes(lang)) return refuse("badForm");
  // The Markdown zip's folder of pages: optional; one that leaves the folder is the field's error.
  const pagesFolder = (upload.fields.pagesFolder ?? "").trim();
  if (pagesFolder !== "" && pagesFolderParts(pagesFolder) === null) return refuse("pagesFolderInvalid");
  const format = sniffImport(upload.head);
  if (format === null) return refuse("unknownFormat");
  const label =
    upload.fileName.slice(0, 200) ||
    (format === "zip" ? "upload.zip" : format === "xml" ? "export.xml" : "export.json");
  let source: { kind: string; rootDir: string; unpacked: string } | null = null;
  let id: string | null = null;
  const lines: ImportReportLine[] = [];
  let plan: ReturnType<typeof startPostImportPlan> | null = null;
  const drop = async () => {
    if (source) {
      await dropReadingImports(db, source.kind, source.rootDir, label);
      await rm(source.unpacked, { recursive: true, force: true });
    }
  };
  let outcome: Awaited<ReturnType<typeof uploadChecks.check>>;
  try {
    outcome = await uploadChecks.check(
      {
        file: upload.file,
        format,
        importsDir,
        locale: lang === "en" || lang === "zh" ? lang : undefined,
        ...(pagesFolder ? { pagesFolder } : {}),
        entryMaxBytes: Math.max(env.uploadMaxBytes, MARKDOWN_FILE_MAX_BYTES),
        totalMaxBytes: uploadZipBudget(env.uploadMaxBytes),
      },
      {
        async onSource(found) {
          source = found;
          id = await beginPostImport(db, {
            kind: found.kind,
            label,
            rootDir: found.rootDir,
            actor: admin,
            authorId: admin.id,
            fetchRemote,
          });
          plan = startPostImportPlan(db, {
            kind: found.kind,
            images: imageResolverFor(found.kind, found.rootDir, env.uploadMaxBytes),
            onLine: (l) => lines.push(l),
            fetchRemote,
          });
        },
        async onPosts(items) {
          if (!id || !plan) throw new Error("posts before their source");
          if (
            !(await appendPostImportPayloads(
              db,
              id,
              items.map((i) => i.payload),
            ))
          )
            throw new Error("the import was dropped while its upload was read");
          await plan.addChecked(items.map((i) => i.check));
        },
      },
    );
  } catch (error) {
    await drop();
    throw error;
  }
  const read = plan as ReturnType<typeof startPostImportPlan> | null;
  if (!outcome.ok || !id || !read || read.counts.total === 0) {
    await drop();
    return outcome.ok ? refuse("noPosts") : refuse(outcome.refusal, 400, outcome.detail);
  }
  // The lines of reading come first in the report, as they were found first.
  const postLines = lines.splice(0);
  read.problems(outcome.problems);
  const report = [...lines, ...postLines];
  await appendPostImportPayloads(db, id, [], outcome.problems);
  await finishPostImportRead(db, id, { staged: true });
  // Kept for download beside the final report (the page shows the first lines only).
  await savePostImportPlan(db, id, { counts: read.counts, report });
  const shown = report.filter((l) => l.outcome !== "imported" && l.outcome !== "updated");
  return {
    status: 200,
    answer: { ok: true, id, label, counts: read.counts, report: shown.slice(0, IMPORT_LINES_SHOWN) },
  };
}
