import { getUser } from "../../server/auth/session.server.ts";
import { getApp } from "../../server/context.server.ts";
import { findMediaUsages, getMedia } from "../../server/media/media.server.ts";
import type { Route } from "./+types/files";

// GET /api/files/{id}: an uploaded file's metadata (spec section 3) and where it is
// used. Admins only.

const NO_STORE = { "Cache-Control": "no-store" };

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const app = getApp(context);
  const user = await getUser(context, request);
  if (!user)
    return Response.json(
      { code: "unauthenticated", error: "Sign in as an admin." },
      { status: 401, headers: NO_STORE },
    );
  if (!user.isAdmin)
    return Response.json({ code: "unauthorized", error: "Admins only." }, { status: 403, headers: NO_STORE });
  const media = /^[0-9a-z]{20}$/.test(params.id) ? await getMedia(app.db, params.id) : null;
  if (!media)
    return Response.json({ code: "object-not-found", error: "No such file." }, { status: 404, headers: NO_STORE });
  const usages = await findMediaUsages(app.db, media.id);
  return Response.json({ media, usages }, { headers: NO_STORE });
}
