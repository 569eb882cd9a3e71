import { isLocale } from "../../lib/i18n/locale.ts";
import { getUser } from "../../server/auth/session.server.ts";
import { getApp } from "../../server/context.server.ts";
import { mediaImages } from "../../server/media/media.server.ts";
import { POST_MARKDOWN_MAX_LENGTH, renderPost } from "../../server/post-render.server.ts";
import { hit, LIMITS, scaled } from "../../server/rate-limit.server.ts";
import type { Route } from "./+types/post-preview";

// POST /api/posts/preview: the editor's live preview. Body `{"markdown": "…",
// "locale"?: "en" | "zh"}`; answers `{html, toc, readingMinutes}` from the same
// renderPost that runs on save. Admins only, same-origin only, rate-limited per admin.
// Errors are JSON `{code, error}`: `code` for the editor to translate, `error` for people.

const NO_STORE = { "Cache-Control": "no-store" };

function failure(status: number, code: string, error: string, headers: Record<string, string> = {}): Response {
  return Response.json({ code, error }, { status, headers: { ...NO_STORE, ...headers } });
}

/** A browser always sends Origin on a POST: it must be this site (as reached, or its PUBLIC_URL). */
function sameOrigin(request: Request, publicUrl: string): boolean {
  const origin = request.headers.get("origin");
  if (!origin) return false;
  return origin === new URL(request.url).origin || origin === new URL(publicUrl).origin;
}

export async function loader() {
  return failure(405, "method_not_allowed", "Use POST.", { Allow: "POST" });
}

export async function action({ request, context }: Route.ActionArgs) {
  const app = getApp(context);
  if (request.method !== "POST") return failure(405, "method_not_allowed", "Use POST.", { Allow: "POST" });
  if (!sameOrigin(request, app.env.publicUrl)) return failure(403, "cross_origin", "Cross-origin request refused.");

  const user = await getUser(context, request);
  if (!user) return failure(401, "unauthenticated", "Sign in as an admin to preview posts.");
  if (!user.isAdmin) return failure(403, "forbidden", "Only admins can preview posts.");

  const limit = await hit(
    app.rateLimits,
    `preview:user:${user.id}`,
    scaled(LIMITS.previewPerUser, app.env.rateLimitMultiplier),
  );
  if (!limit.allowed) {
    return failure(429, "too_many_requests", `Too many previews; try again in ${limit.retryAfterSeconds} s.`, {
      "Retry-After": String(limit.retryAfterSeconds),
    });
  }

  if (!/^application\/json\s*(?:;|$)/i.test(request.headers.get("content-type") ?? "")) {
    return failure(415, "unsupported_media_type", "Send the body as application/json.");
  }
  let body: unknown;
  try {
    const text = await request.text();
    body = JSON.parse(text);
  } catch (error) {
    if (error instanceof SyntaxError) return failure(400, "invalid_json", "The body is not valid JSON.");
    // The body was cut off at BODY_LIMIT_BYTES (the server answers 413 itself).
    return failure(413, "too_long", "The request body is too large.");
  }
  if (typeof body !== "object" || body === null || !("markdown" in body) || typeof body.markdown !== "string") {
    return failure(400, "invalid_body", 'Send {"markdown": "…"} with the Markdown as a string.');
  }
  const markdown = body.markdown;
  const locale = "locale" in body ? body.locale : undefined;
  if (locale !== undefined && !isLocale(locale)) {
    return failure(400, "invalid_locale", 'locale must be "en" or "zh".');
  }
  if (markdown.length > POST_MARKDOWN_MAX_LENGTH) {
    return failure(
      413,
      "too_long",
      `The Markdown has ${markdown.length} characters; the limit is ${POST_MARKDOWN_MAX_LENGTH}.`,
    );
  }

  const rendered = await renderPost(markdown, locale, { media: (ids) => mediaImages(app.db, ids) });
  return Response.json(rendered, { headers: NO_STORE });
}
