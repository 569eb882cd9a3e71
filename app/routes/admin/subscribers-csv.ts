import { toCsv } from "../../lib/csv.ts";
import { requireAdmin } from "../../server/accounts/session.server.ts";
import { getApp } from "../../server/boot/context.server.ts";
import { subscribersForExport } from "../../server/newsletter/admin-subscribers.server.ts";
import type { Route } from "./+types/subscribers-csv";

/**
 * The subscribers (with the list's filter, when given) as a CSV attachment. Newer columns
 * come last, so a reader of the older five columns by position keeps working; the subscriber
 * import reads `languages` back by its name.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(context, request);
  const { db } = getApp(context);
  const url = new URL(request.url);
  const rows = await subscribersForExport(db, {
    q: (url.searchParams.get("q") ?? "").slice(0, 100),
    status: url.searchParams.get("status") ?? "",
  });
  const csv = toCsv([
    ["email", "status", "locale", "createdAt", "confirmedAt", "languages", "bounceCount", "bouncedAt"],
    ...rows.map((s) => [
      s.email,
      s.status,
      s.locale,
      s.createdAt,
      s.confirmedAt,
      s.languages,
      s.bounceCount,
      s.bouncedAt,
    ]),
  ]);
  const date = new Date().toISOString().slice(0, 10);
  return new Response(csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="subscribers-${date}.csv"`,
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
