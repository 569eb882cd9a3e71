import { useTranslation } from "react-i18next";
import { data, Form, redirect, useNavigation } from "react-router";
import { BUTTON_SECONDARY, dateTimeFormatter, LINK } from "../../components/editor/editor-ui.ts";
import { EditorErrorBoundary } from "../../components/editor/error-boundary.tsx";
import { RevisionDiff } from "../../components/editor/revision-diff.tsx";
import { FormAlert } from "../../components/ui/field.tsx";
import { Link } from "../../lean/link.tsx";
import { useAdminStrings } from "../../lib/i18n/admin-strings.ts";
import { useMessage } from "../../lib/i18n/use-message.ts";
import { isRecordId } from "../../lib/ids.ts";
import { NOINDEX, pageMeta } from "../../lib/meta.ts";
import { routePolicy } from "../../lib/route-policy.ts";
import { requireAdmin } from "../../server/accounts/session.server.ts";
import { getApp, getRequest } from "../../server/boot/context.server.ts";
import { lifecycleAnnounced, writeChangesPost } from "../../server/cache/page-tags.server.ts";
import { flashHeaders, flashOptions } from "../../server/http/flash.server.ts";
import { readForm } from "../../server/http/form.server.ts";
import { restoreRevision } from "../../server/posts/pending-edits.server.ts";
import { loadPostForEdit } from "../../server/posts/post-editor.server.ts";
import { compareRevisions } from "../../server/posts/revision-compare.server.ts";
import { getRevision, type Revision } from "../../server/posts/revisions.server.ts";
import { listSeriesOptions } from "../../server/taxonomy/series.server.ts";
import { listCategories, termName } from "../../server/taxonomy/taxonomy.server.ts";
import type { Route } from "./+types/revision-diff";

export const handle = routePolicy({ cache: "none", writes: "content" });

// `/posts/edit/{postId}/history/{a}...{b}` (and /en, /zh): what changed from revision a
// to revision b of any post (decision 028), and Restore for either of them.

/** The two revision ids of `{a}...{b}`, or null. */
export function parseRange(range: string): [string, string] | null {
  const [a, b, ...rest] = range.split("...");
  if (rest.length > 0 || !isRecordId(a) || !isRecordId(b) || a === b) return null;
  return [a, b];
}

function summary(revision: Revision) {
  return {
    id: revision.id,
    kind: revision.kind,
    status: revision.status,
    authorName: revision.authorName,
    updatedAt: revision.updatedAt,
  };
}

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireAdmin(context, request);
  const { db } = getApp(context);
  const { locale, prefix } = getRequest(context);
  const range = parseRange(params.range);
  if (!range) throw data(null, { status: 404 });
  const post = await loadPostForEdit(db, params.postId, user);
  if (!post) throw data(null, { status: 404 });
  const [a, b, categories, series] = await Promise.all([
    getRevision(db, post.id, range[0]),
    getRevision(db, post.id, range[1]),
    listCategories(db),
    listSeriesOptions(db),
  ]);
  if (!a || !b) throw data(null, { status: 404 });
  const names = new Map(categories.map((c) => [c.id, termName(c, locale)]));
  const seriesNames = new Map(series.map((s) => [s.id, termName(s, locale)]));
  const comparison = compareRevisions(
    a.content,
    b.content,
    (id) => (id ? (names.get(id) ?? id) : ""),
    (id) => (id ? (seriesNames.get(id) ?? id) : ""),
  );
  return {
    locale,
    prefix,
    postId: post.id,
    live: post.status === "published",
    a: summary(a),
    b: summary(b),
    comparison,
  };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const user = await requireAdmin(context, request);
  const app = getApp(context);
  const req = getRequest(context);
  const range = parseRange(params.range);
  if (!range) throw data(null, { status: 404 });
  const form = await readForm(request);
  const revisionId = form.get("revisionId");
  if (form.get("intent") !== "restore" || typeof revisionId !== "string" || !range.includes(revisionId))
    return data({ error: "editor:errors.invalidForm" }, { status: 400 });
  const result = await restoreRevision(app.db, user, params.postId, revisionId);
  if (!result.ok) {
    switch (result.reason) {
      case "notFound":
        throw data(null, { status: 404 });
      case "conflict":
        return data({ error: "editor:conflict.intro" }, { status: 409 });
      case "invalid":
        return data({ error: Object.values(result.fieldErrors)[0] ?? "editor:errors.invalidForm" }, { status: 400 });
    }
  }
  const editor = `${req.prefix}/posts/edit/${params.postId}`;
  const flash = flashOptions(app.env);
  if (result.pending) {
    // Readers see nothing new: only the post's own pages are looked at again.
    writeChangesPost(req, params.postId);
    req.log.info({ postId: params.postId, revisionId }, "revision restored as pending changes");
    return redirect(editor, { headers: flashHeaders(flash, "success", "editor:flash.restoredPending") });
  }
  lifecycleAnnounced(req);
  req.log.info({ postId: params.postId, revisionId }, "revision restored");
  return redirect(editor, { headers: flashHeaders(flash, "success", "editor:flash.restored") });
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, "editor:history.diffHeading", [NOINDEX]);
}

export default function RevisionDiffPage({ loaderData, actionData }: Route.ComponentProps) {
  useAdminStrings();
  const { t } = useTranslation("editor");
  const m = useMessage();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod?.toUpperCase() === "POST";
  const { locale, prefix, postId, a, b, comparison } = loaderData;
  const format = dateTimeFormatter(locale, true);
  const revisionVars = (r: typeof a) => ({
    time: format(r.updatedAt),
    who: r.authorName ?? t("history.unknownAuthor"),
    status: r.kind === "pending" ? t("history.pending") : t(`status.${r.status}`),
  });
  const error = actionData && "error" in actionData ? actionData.error : null;

  return (
    <section aria-labelledby="diff-title" className="space-y-6">
      <header className="flex flex-wrap items-baseline justify-between gap-4">
        <h1 id="diff-title" className="text-2xl font-bold">
          {t("history.diffHeading")}
        </h1>
        <nav className="flex gap-4 text-sm">
          <Link to={`${prefix}/posts/edit/${postId}/history`} className={LINK}>
            {t("history.backToHistory")}
          </Link>
          <Link to={`${prefix}/posts/edit/${postId}`} className={LINK}>
            {t("history.backToEditor")}
          </Link>
        </nav>
      </header>
      <ul className="space-y-1 text-sm">
        <li>{t("history.revisionA", revisionVars(a))}</li>
        <li>{t("history.revisionB", revisionVars(b))}</li>
      </ul>
      {error && <FormAlert>{t("history.restoreFailed", { reason: m(error) })}</FormAlert>}
      <RevisionDiff languages={comparison.languages} settings={comparison.settings} />
      <Form method="post" className="space-y-2 border-t border-zinc-200 pt-4 dark:border-zinc-800">
        <input type="hidden" name="intent" value="restore" />
        <p className="text-sm text-zinc-700 dark:text-zinc-300">{t("history.restoreHint")}</p>
        <div className="flex flex-wrap gap-3">
          <button type="submit" name="revisionId" value={a.id} disabled={busy} className={BUTTON_SECONDARY}>
            {t("history.restoreA")}
          </button>
          <button type="submit" name="revisionId" value={b.id} disabled={busy} className={BUTTON_SECONDARY}>
            {t("history.restoreB")}
          </button>
        </div>
      </Form>
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <EditorErrorBoundary error={error} />;
}
