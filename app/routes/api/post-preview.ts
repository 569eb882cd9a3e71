import { isLocale } from "../../lib/i18n/locale.ts";
import { MAX_MARKDOWN_NESTING, withinNesting } from "../../lib/markdown-depth.ts";
import { routePolicy } from "../../lib/route-policy.ts";
import { getUser } from "../../server/accounts/session.server.ts";
import { getApp } from "../../server/boot/context.server.ts";
import { jsonError } from "../../server/http/json-error.server.ts";
import { hit, LIMITS, scaled } from "../../server/http/rate-limit.server.ts";
import { mediaImages } from "../../server/media/media.server.ts";
import { POST_MARKDOWN_MAX_LENGTH, renderPost } from "../../server/render/post-render.server.ts";
import type { Route } from "./+types/post-preview";

export const handle = routePolicy({ cache: "none", writes: "none" });

// POST /api/posts/preview: the editor's live preview. Body `{"markdown": "…",
// "locale"?: "en" | "zh"}`; answers `{html, toc, readingMinutes}` from the same
// renderPost that runs on save. Admins only, same-origin only, rate-limited per admin.
// Errors are JSON `{code, error}`: `code` for the editor to translate, `error` for people.

const NO_STORE = { "Cache-Control": "no-store" };

/** A browser always sends Origin on a POST: it must be this site (as reached, or its PUBLIC_URL). */
function sameOrigin(request: Request, publicUrl: string): boolean {
  const origin = request.headers.get("origin");
  if (!origin) return false;
  return origin === new URL(request.url).origin || origin === new URL(publicUrl).origin;
}

export async function loader() {
  return jsonError(405, "method-not-allowed", "Use POST.", { Allow: "POST" });
}

export async function action({ request, context }: Route.ActionArgs) {
  const app = getApp(context);
  if (request.method !== "POST") return jsonError(405, "method-not-allowed", "Use POST.", { Allow: "POST" });
  if (!sameOrigin(request, app.env.publicUrl)) return jsonError(403, "cross-origin", "Cross-origin request refused.");

  const user = await getUser(context, request);
  if (!user) return jsonError(401, "unauthenticated", "Sign in as an admin to preview posts.");
  if (!user.isAdmin) return jsonError(403, "forbidden", "Only admins can preview posts.");

  const limit = await hit(
    app.rateLimits,
    `preview:user:${user.id}`,
    scaled(LIMITS.previewPerUser, app.env.rateLimitMultiplier),
  );
  if (!limit.allowed) {
    return jsonError(429, "too-many-requests", `Too many previews; try again in ${limit.retryAfterSeconds} s.`, {
      "Retry-After": String(limit.retryAfterSeconds),
    });
  }

  if (!/^application\/json\s*(?:;|$)/i.test(request.headers.get("content-type") ?? "")) {
    return jsonError(415, "unsupported-media-type", "Send the body as application/json.");
  }
  let body: unknown;
  try {
    const text = await request.text();
    body = JSON.parse(text);
  } catch (error) {
    if (error instanceof SyntaxError) return jsonError(400, "invalid-json", "The body is not valid JSON.");
    // The body was cut off at BODY_LIMIT_BYTES (the server answers 413 itself).
    return jsonError(413, "too-long", "The request body is too large.");
  }
  if (typeof body !== "object" || body === null || !("markdown" in body) || typeof body.markdown !== "string") {
    return jsonError(400, "invalid-body", 'Send {"markdown": "…"} with the Markdown as a string.');
  }
  const markdown = body.markdown;
  const locale = "locale" in body ? body.locale : undefined;
  if (locale !== undefined && !isLocale(locale)) {
    return jsonError(400, "invalid-locale", 'locale must be "en" or "zh".');
  }
  if (markdown.length > POST_MARKDOWN_MAX_LENGTH) {
    return jsonError(
      413,
      "too-long",
      `The Markdown has ${markdown.length} characters; the limit is ${POST_MARKDOWN_MAX_LENGTH}.`,
    );
  }

  if (!withinNesting(markdown)) {
    return jsonError(400, "too-deep", `Quotes and lists can be nested at most ${MAX_MARKDOWN_NESTING} levels deep.`);
  }

  const rendered = await renderPost(markdown, locale, { media: (ids) => mediaImages(app.db, ids) });
  return Response.json(rendered, { headers: NO_STORE });
}
