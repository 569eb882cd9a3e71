import { Readable } from "node:stream";
import { redirect } from "react-router";
import { isLocale } from "../../lib/i18n/locale.ts";
import { isRecordId } from "../../lib/ids.ts";
import { routePolicy } from "../../lib/route-policy.ts";
import { getApp } from "../../server/boot/context.server.ts";
import { requestSettings } from "../../server/site/request-settings.server.ts";
import { findSocialCard } from "../../server/social-cards/cards.server.ts";
import { StorageError } from "../../server/storage/types.server.ts";
import type { Route } from "./+types/social-card";

// Not kept in the render cache (it holds pages, not pictures); the answer says how to cache it.
export const handle = routePolicy({ cache: "none" });

/** How long a browser or unfurler keeps a card before asking again (it changes with the post). */
const CARD_CACHE_CONTROL = "public, max-age=3600";

// GET /cards/{postId}/{en|zh}.jpg: a post's social card at an address that never changes, so
// pages name it from the start and need not be re-rendered when the card job draws it. The
// card itself is a stored file (/media/{id}/card.jpg, a new one per drawing); until the first
// is drawn, the address sends to the site image (docs/decisions/036-social-cards-and-brand.md).
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const app = getApp(context);
  const postId = params.postId ?? "";
  const locale = /^(en|zh)\.jpg$/.exec(params.file ?? "")?.[1];
  if (!isRecordId(postId) || !isLocale(locale)) return new Response("Not found", { status: 404 });
  const card = await findSocialCard(app.db, postId, locale);
  if (!card) {
    const { socialImage } = await requestSettings(context);
    throw redirect(socialImage, { headers: { "Cache-Control": "no-cache" } });
  }
  const key = card.url.replace(/^\/media\//, "");
  const etag = `"${key.split("/")[0]}"`;
  const publicUrl = app.storage.publicUrl(key);
  if (publicUrl) throw redirect(publicUrl, { headers: { "Cache-Control": "no-cache" } });
  const headers = {
    "Cache-Control": CARD_CACHE_CONTROL,
    ETag: etag,
    "X-Content-Type-Options": "nosniff",
    "Cross-Origin-Resource-Policy": "cross-origin",
  };
  if (
    request.headers
      .get("if-none-match")
      ?.split(",")
      .some((t) => t.trim() === etag)
  ) {
    return new Response(null, { status: 304, headers });
  }
  try {
    const object = await app.storage.get(key);
    return new Response(Readable.toWeb(object.body) as ReadableStream, {
      headers: { ...headers, "Content-Type": object.contentType, "Content-Length": String(object.size) },
    });
  } catch (error) {
    if (error instanceof StorageError && error.code === "object-not-found") {
      return new Response("Not found", { status: 404, headers: { "Cache-Control": "no-store" } });
    }
    throw error;
  }
}
