import { toCsv } from "../../lib/csv.ts";
import { requireAdmin } from "../../server/accounts/session.server.ts";
import { getApp } from "../../server/boot/context.server.ts";
import { redirectsForExport } from "../../server/redirects/redirects.server.ts";
import type { Route } from "./+types/redirects-csv";

/**
 * Every redirect as a CSV attachment. The first three columns are what the import reads
 * back (from,to,status); `external` and `note` are read too, the rest is for the reader.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(context, request);
  const rows = await redirectsForExport(getApp(context).db);
  const csv = toCsv([
    ["from", "to", "status", "external", "note", "source", "hits", "lastHitAt", "createdAt"],
    ...rows.map((r) => [
      r.from,
      r.to,
      r.status,
      r.external ? 1 : 0,
      r.note,
      r.source,
      r.hits,
      r.lastHitAt,
      r.createdAt,
    ]),
  ]);
  const date = new Date().toISOString().slice(0, 10);
  return new Response(csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="redirects-${date}.csv"`,
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
