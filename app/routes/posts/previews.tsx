import { useId } from "react";
import { useTranslation } from "react-i18next";
import { data, Form, useNavigation } from "react-router";
import { BUTTON_SECONDARY, dateTimeFormatter, LINK } from "../../components/editor/editor-ui.ts";
import { EditorErrorBoundary } from "../../components/editor/error-boundary.tsx";
import { FormAlert } from "../../components/ui/field.tsx";
import { Link } from "../../lean/link.tsx";
import { useAdminStrings } from "../../lib/i18n/admin-strings.ts";
import { isRecordId } from "../../lib/ids.ts";
import { NOINDEX, pageMeta } from "../../lib/meta.ts";
import { PREVIEW_CHOICES, PREVIEW_HOURS } from "../../lib/preview-links.ts";
import { routePolicy } from "../../lib/route-policy.ts";
import { requireAdmin } from "../../server/accounts/session.server.ts";
import { getApp, getRequest } from "../../server/boot/context.server.ts";
import { readForm } from "../../server/http/form.server.ts";
import { loadPostForEdit } from "../../server/posts/post-editor.server.ts";
import { createPreviewLink, listPreviewLinks, revokePreviewLink } from "../../server/posts/preview-links.server.ts";
import type { Route } from "./+types/previews";

// `/posts/edit/{postId}/previews` (and /en, /zh): the post's private preview links. Creating
// one answers with its address (shown once: only the token's hash is stored); each working
// link is listed with its expiry and can be revoked. Readers' pages do not change.
export const handle = routePolicy({ cache: "none", writes: "none" });

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireAdmin(context, request);
  const { db } = getApp(context);
  const { locale, prefix } = getRequest(context);
  const post = await loadPostForEdit(db, params.postId, user);
  if (!post) throw data(null, { status: 404 });
  const title = post.translations[locale]?.title ?? post.translations.en?.title ?? post.translations.zh?.title ?? "";
  return { locale, prefix, post: { id: post.id, title }, links: await listPreviewLinks(db, post.id) };
}

type PreviewsActionData = { created: string } | { revoked: true } | { error: "invalidExpiry" };

export async function action({ request, context, params }: Route.ActionArgs) {
  const user = await requireAdmin(context, request);
  const app = getApp(context);
  const req = getRequest(context);
  const form = await readForm(request);
  const intent = form.get("intent");
  if (intent === "create") {
    const raw = String(form.get("hours") ?? "");
    const hours = /^\d{1,3}$/.test(raw) ? Number(raw) : Number.NaN;
    if (!Number.isInteger(hours) || hours < PREVIEW_HOURS.min || hours > PREVIEW_HOURS.max)
      return data<PreviewsActionData>({ error: "invalidExpiry" }, { status: 400 });
    const link = await createPreviewLink(app.db, { postId: params.postId, user, hours });
    if (!link) throw data(null, { status: 404 });
    req.log.info({ postId: params.postId, previewLinkId: link.id, hours }, "preview link created");
    return data<PreviewsActionData>({ created: `${app.env.publicUrl}${req.prefix}/preview/${link.token}` });
  }
  if (intent === "revoke") {
    const id = form.get("id");
    if (!isRecordId(id)) return data<PreviewsActionData>({ error: "invalidExpiry" }, { status: 400 });
    if (!(await revokePreviewLink(app.db, { postId: params.postId, user, id }))) throw data(null, { status: 404 });
    req.log.info({ postId: params.postId, previewLinkId: id }, "preview link revoked");
    return data<PreviewsActionData>({ revoked: true });
  }
  throw data(null, { status: 400 });
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, "editor:previews.title", [NOINDEX]);
}

export default function PreviewsPage({ loaderData, actionData }: Route.ComponentProps) {
  useAdminStrings();
  const { t } = useTranslation("editor");
  const { locale, prefix, post, links } = loaderData;
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod?.toUpperCase() === "POST";
  const format = dateTimeFormatter(locale, true);
  const expiryId = useId();
  const createdId = useId();
  const choice = (hours: number) =>
    hours % 24 === 0 ? t("previews.days", { count: hours / 24 }) : t("previews.hours", { count: hours });

  return (
    <section aria-labelledby="previews-title" className="space-y-6">
      <header className="flex flex-wrap items-baseline justify-between gap-4">
        <h1 id="previews-title" className="text-2xl font-bold">
          {t("previews.heading", { title: post.title })}
        </h1>
        <nav className="flex gap-4 text-sm">
          <Link to={`${prefix}/posts/edit/${post.id}`} className={LINK}>
            {t("history.backToEditor")}
          </Link>
        </nav>
      </header>
      <p className="text-zinc-700 dark:text-zinc-300">{t("previews.intro")}</p>

      {actionData && "error" in actionData && <FormAlert>{t("previews.invalidExpiry")}</FormAlert>}
      {actionData && "revoked" in actionData && <FormAlert tone="success">{t("previews.revoked")}</FormAlert>}
      {actionData && "created" in actionData && (
        <div className="space-y-2 rounded-md border border-green-300 bg-green-50 p-4 dark:border-green-800 dark:bg-green-950">
          <label htmlFor={createdId} className="block text-sm font-medium">
            {t("previews.createdLabel")}
          </label>
          <input
            id={createdId}
            readOnly
            value={actionData.created}
            aria-describedby={`${createdId}-hint`}
            className="w-full rounded-md border border-zinc-300 px-3 py-2 font-mono text-sm dark:border-zinc-700 dark:bg-zinc-900"
            data-testid="preview-url"
          />
          <p id={`${createdId}-hint`} className="text-sm">
            {t("previews.created")}
          </p>
        </div>
      )}

      <Form method="post" className="flex flex-wrap items-end gap-3">
        <input type="hidden" name="intent" value="create" />
        <div>
          <label htmlFor={expiryId} className="block text-sm font-medium">
            {t("previews.expiry")}
          </label>
          <select
            id={expiryId}
            name="hours"
            defaultValue={String(PREVIEW_HOURS.default)}
            className="mt-1 rounded-md border border-zinc-300 px-3 py-2 dark:border-zinc-700 dark:bg-zinc-900"
          >
            {PREVIEW_CHOICES.map((hours) => (
              <option key={hours} value={hours}>
                {choice(hours)}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" disabled={busy} className={BUTTON_SECONDARY}>
          {t("previews.create")}
        </button>
      </Form>

      <h2 className="text-xl font-semibold">{t("previews.active")}</h2>
      {links.length === 0 ? (
        <p>{t("previews.none")}</p>
      ) : (
        <table className="w-full text-left text-sm">
          <thead>
            <tr className="border-b border-zinc-200 dark:border-zinc-800">
              <th scope="col" className="py-2 pr-3">
                {t("previews.colCreated")}
              </th>
              <th scope="col" className="py-2 pr-3">
                {t("previews.colExpires")}
              </th>
              <th scope="col" className="py-2 pr-3">
                {t("previews.colActions")}
              </th>
            </tr>
          </thead>
          <tbody>
            {links.map((link) => (
              <tr key={link.id} className="border-b border-zinc-100 dark:border-zinc-900">
                <td className="py-2 pr-3">
                  <time dateTime={link.createdAt}>{format(link.createdAt)}</time>
                </td>
                <td className="py-2 pr-3">
                  <time dateTime={link.expiresAt}>{format(link.expiresAt)}</time>
                </td>
                <td className="py-2 pr-3">
                  <Form method="post">
                    <input type="hidden" name="intent" value="revoke" />
                    <input type="hidden" name="id" value={link.id} />
                    <button
                      type="submit"
                      disabled={busy}
                      className={BUTTON_SECONDARY}
                      aria-label={t("previews.revokeLabel", { time: format(link.createdAt) })}
                    >
                      {t("previews.revoke")}
                    </button>
                  </Form>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <EditorErrorBoundary error={error} />;
}
