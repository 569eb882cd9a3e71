import { requireAdmin } from "../../server/accounts/session.server.ts";
import { getApp, getRequest } from "../../server/boot/context.server.ts";
import { postImportReport } from "../../server/import/job/report.server.ts";
import { REPORT_FILES, reportJson, reportText } from "../../server/import/report-file.server.ts";
import type { Route } from "./+types/import-report";

/**
 * An import's dry run or final report as a download (`/admin/import/{id}/dry-run.json`,
 * `dry-run.txt`, `report.json`, `report.txt`), admins only. 404 for an unknown import or file,
 * a dry run that was not kept (command-line imports) and a report of an import not ended yet.
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireAdmin(context, request);
  const file = Object.hasOwn(REPORT_FILES, params.file) ? REPORT_FILES[params.file] : undefined;
  if (!file || !/^[\w-]{1,64}$/.test(params.id)) throw new Response("Not found", { status: 404 });
  const report = await postImportReport(getApp(context).db, params.id, file.which);
  if (!report) throw new Response("Not found", { status: 404 });
  const body =
    file.format === "json"
      ? reportJson(report, file.which)
      : reportText(report, file.which, getRequest(context).locale);
  return new Response(body, {
    headers: {
      "Content-Type": file.format === "json" ? "application/json; charset=utf-8" : "text/plain; charset=utf-8",
      "Content-Disposition": `attachment; filename="import-${report.id}-${params.file}"`,
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
