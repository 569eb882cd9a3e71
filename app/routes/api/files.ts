import { isRecordId } from "../../lib/ids.ts";
import { routePolicy } from "../../lib/route-policy.ts";
import { getUser } from "../../server/accounts/session.server.ts";
import { getApp } from "../../server/boot/context.server.ts";
import { jsonError } from "../../server/http/json-error.server.ts";
import { findMediaUsages, getMedia } from "../../server/media/media.server.ts";
import type { Route } from "./+types/files";

export const handle = routePolicy({ cache: "none" });

// GET /api/files/{id}: an uploaded file's metadata (spec section 3) and where it is
// used. Admins only.

const NO_STORE = { "Cache-Control": "no-store" };

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const app = getApp(context);
  const user = await getUser(context, request);
  if (!user) return jsonError(401, "unauthenticated", "Sign in as an admin.");
  if (!user.isAdmin) return jsonError(403, "unauthorized", "Admins only.");
  const media = isRecordId(params.id) ? await getMedia(app.db, params.id) : null;
  if (!media) return jsonError(404, "object-not-found", "No such file.");
  const usages = await findMediaUsages(app.db, media.id);
  return Response.json({ media, usages }, { headers: NO_STORE });
}
