import { redirect } from "react-router";
import type { ErrorCode } from "../../lib/error-codes.ts";
import type { FlashKey } from "../../lib/flash.ts";
import { formatBytes } from "../../lib/media.ts";
import { routePolicy } from "../../lib/route-policy.ts";
import { getUser } from "../../server/accounts/session.server.ts";
import { getApp, getRequest } from "../../server/boot/context.server.ts";
import { flashHeaders, flashOptions } from "../../server/http/flash.server.ts";
import { jsonError } from "../../server/http/json-error.server.ts";
import { hit, LIMITS, scaled } from "../../server/http/rate-limit.server.ts";
import { storeUpload, UploadRejected } from "../../server/media/media.server.ts";
import { readSingleFile } from "../../server/media/multipart.server.ts";
import { StorageError } from "../../server/storage/types.server.ts";
import type { Route } from "./+types/uploads";

export const handle = routePolicy({ cache: "none", writes: "none", body: "upload" });

// POST /api/uploads: one image as multipart/form-data (field "file"). Admins only,
// same-origin only (the server's CSRF guard), rate-limited per admin. Answers 201
// with the media record, or JSON {code, error}: the codes follow the spec's storage
// codes (invalid-format 415, quota-exceeded 507, unauthenticated 401, unauthorized
// 403) plus too-large 413 and too-many-pixels 422. A plain form post (the media
// library without JavaScript) is answered with a redirect back and a flash message.

const NO_STORE = { "Cache-Control": "no-store" };

export async function loader() {
  return jsonError(405, "method-not-allowed", "Use POST.", { Allow: "POST" });
}

const FORMAT_MESSAGES = {
  extension: "Only JPEG, PNG, WebP, GIF, AVIF and SVG files can be uploaded.",
  content: "The file's content is not a JPEG, PNG, WebP, GIF, AVIF or SVG image.",
  mismatch: "The file's name and its content disagree about its format.",
  unreadable: "The image could not be read.",
} as const;

/** A browser form post (not fetch) asks for HTML: it gets a page, not JSON. */
function wantsPage(request: Request): boolean {
  return /\btext\/html\b/.test(request.headers.get("accept") ?? "");
}

const PAGE_FLASH: Partial<Record<ErrorCode, FlashKey>> = {
  "invalid-format": "media:flash.invalidFormat",
  "too-large": "media:flash.tooLarge",
  "too-many-pixels": "media:flash.tooManyPixels",
};

export async function action(args: Route.ActionArgs) {
  const { code, response } = await handleUpload(args);
  if (!wantsPage(args.request) || response.status === 401 || response.status === 403) return response;
  const app = getApp(args.context);
  const options = flashOptions(app.env);
  if (code === "created") {
    return redirect("/admin/media", { headers: flashHeaders(options, "success", "media:flash.uploaded") });
  }
  return redirect("/admin/media", {
    headers: flashHeaders(options, "error", PAGE_FLASH[code] ?? "media:flash.failed"),
  });
}

/** What an upload came to: its code (or "created") and the JSON answer, read without re-parsing it. */
interface UploadOutcome {
  code: ErrorCode | "created";
  response: Response;
}

const fail = (status: number, code: ErrorCode, error: string, headers: Record<string, string> = {}): UploadOutcome => ({
  code,
  response: jsonError(status, code, error, headers),
});

async function handleUpload({ request, context }: Route.ActionArgs): Promise<UploadOutcome> {
  const app = getApp(context);
  if (request.method !== "POST") return fail(405, "method-not-allowed", "Use POST.", { Allow: "POST" });
  const user = await getUser(context, request);
  if (!user) return fail(401, "unauthenticated", "Sign in as an admin to upload files.");
  if (!user.isAdmin) return fail(403, "unauthorized", "Only admins can upload files.");

  const limit = await hit(
    app.rateLimits,
    `upload:user:${user.id}`,
    scaled(LIMITS.uploadPerUser, app.env.rateLimitMultiplier),
  );
  if (!limit.allowed) {
    return fail(429, "too-many-requests", `Too many uploads; try again in ${limit.retryAfterSeconds} s.`, {
      "Retry-After": String(limit.retryAfterSeconds),
    });
  }

  const max = app.env.uploadMaxBytes;
  const part = await readSingleFile(request, max);
  if (!part.ok) {
    switch (part.reason) {
      case "too-large":
        return fail(413, "too-large", `The file is larger than the ${formatBytes(max)} limit.`, {
          Connection: "close",
        });
      case "not-multipart":
        return fail(400, "invalid-request", "Send the file as multipart/form-data in a field named “file”.");
      case "too-many-parts":
        return fail(400, "invalid-request", "Send one file per request.");
      case "no-file":
        return fail(400, "no-file", "Choose a file to upload.");
      default:
        return fail(400, "invalid-request", "The upload could not be read.");
    }
  }

  try {
    const media = await storeUpload(
      {
        db: app.db,
        storage: app.storage,
        log: getRequest(context).log,
        uploadDeadlineMs: app.env.storageRetry.uploadDeadlineMs,
      },
      { fileName: part.fileName, data: part.data, uploadedBy: user.id, signal: request.signal },
    );
    getRequest(context).log.info({ mediaId: media.id, size: media.size }, "stored an upload");
    return { code: "created", response: Response.json({ media }, { status: 201, headers: NO_STORE }) };
  } catch (error) {
    if (error instanceof UploadRejected) {
      const f = error.failure;
      if (f.code === "invalid-format") return fail(415, "invalid-format", FORMAT_MESSAGES[f.reason]);
      if (f.code === "unsafe-svg") return fail(415, "invalid-format", "This SVG file cannot be made safe.");
      return fail(422, "too-many-pixels", "The image has too many pixels.");
    }
    if (error instanceof StorageError) {
      getRequest(context).log.error({ err: error, code: error.code }, "could not store an upload");
      if (error.code === "quota-exceeded") return fail(507, "quota-exceeded", "The storage is full.");
      return fail(
        error.status >= 500 ? 503 : error.status,
        error.code,
        "The file could not be stored; try again.",
        error.status >= 500 ? { "Retry-After": "30" } : {},
      );
    }
    throw error;
  }
}
