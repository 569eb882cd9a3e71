import { data, redirect } from "react-router";
import { EditorErrorBoundary } from "../../components/editor/error-boundary.tsx";
import { type ConflictInfo, PostEditor } from "../../components/editor/post-editor.tsx";
import { editorValuesFromForm, editorValuesFromPost, emptyEditorValues } from "../../lib/editor-values.ts";
import type { FieldErrors } from "../../lib/forms.ts";
import { validate } from "../../lib/forms.ts";
import { useAdminStrings } from "../../lib/i18n/admin-strings.ts";
import { NOINDEX, pageMeta } from "../../lib/meta.ts";
import { routePolicy } from "../../lib/route-policy.ts";
import { localDateTimeToIso, postFormSchema } from "../../lib/schemas/post.ts";
import { requireAdmin } from "../../server/accounts/session.server.ts";
import { getApp, getRequest } from "../../server/boot/context.server.ts";
import { lifecycleAnnounced, writeChangesPost } from "../../server/cache/page-tags.server.ts";
import type { DB } from "../../server/db/db.server.ts";
import { flashHeaders, flashOptions } from "../../server/http/flash.server.ts";
import { readForm } from "../../server/http/form.server.ts";
import { postViewsByDay } from "../../server/insights/report.server.ts";
import { newId } from "../../server/platform/ids.server.ts";
import {
  discardPendingEdit,
  isLivePost,
  savePendingEdit,
  schedulePendingUpdate,
} from "../../server/posts/pending-edits.server.ts";
import {
  createEditorPost,
  type EditorPost,
  loadPostForEdit,
  setPostFederate,
  updateEditorPost,
} from "../../server/posts/post-editor.server.ts";
import { publishAudience } from "../../server/posts/publish-audience.server.ts";
import { currentRevisionId, pendingRevision } from "../../server/posts/revisions.server.ts";
import { markTranslationInLine, outdatedTranslations } from "../../server/posts/translation-sync.server.ts";
import { listSeriesOptions } from "../../server/taxonomy/series.server.ts";
import { listCategories, termName } from "../../server/taxonomy/taxonomy.server.ts";
import type { Route } from "./+types/editor";

export const handle = routePolicy({ cache: "none", writes: "content" });

// `/posts/createPost` and `/posts/edit/{postId}` (and their /en, /zh forms): the
// admin's post editor. Only admins; an admin edits every post, whoever wrote it, and the post
// keeps its author (posts/post-access.server.ts, docs/decisions/028-admins-edit-every-post.md).

function valuesOf(post: EditorPost, locale: "en" | "zh") {
  return editorValuesFromPost(
    post,
    post.tags.map((tag) => termName(tag, locale)),
  );
}

/**
 * What the editor shows of a post: a live post's pending changes when it has some (readers
 * still see the stored post), else the post; and for a live post, which version readers see.
 */
async function editorView(db: DB, post: EditorPost, locale: "en" | "zh", prefix: string) {
  if (post.status !== "published") return { values: valuesOf(post, locale), live: null };
  const pending = await pendingRevision(db, post.id);
  const current = pending ? await currentRevisionId(db, post.id) : null;
  return {
    values: pending
      ? editorValuesFromPost(
          { ...pending.content, newsletter: post.newsletter, federate: post.federate },
          pending.content.tags,
        )
      : valuesOf(post, locale),
    live: {
      savedAt: post.updatedAt,
      pendingAt: pending?.updatedAt ?? null,
      scheduledFor: pending?.scheduledFor ?? null,
      compareHref: pending && current ? `${prefix}/posts/edit/${post.id}/history/${current}...${pending.id}` : null,
    },
  };
}

/** The editor's readers box covers this many days. */
const READERS_DAYS = 30;

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireAdmin(context, request);
  const app = getApp(context);
  const { db } = app;
  const locale = getRequest(context).locale;
  const [categoryRows, seriesRows, audience] = await Promise.all([
    listCategories(db),
    listSeriesOptions(db),
    app.federation.status().then((federation) => publishAudience(db, federation)),
  ]);
  const categories = categoryRows.map((c) => ({ id: c.id, name: termName(c, locale) }));
  const series = seriesRows.map((s) => ({ id: s.id, name: termName(s, locale) }));
  // Who publishing would reach, for the publish dialog: subscribers and Fediverse followers.
  const base = { locale, prefix: getRequest(context).prefix, categories, series, audience };
  if (!params.postId) {
    // The form's idempotency key: it becomes the new post's id, so a second submit
    // of this same form finds the post instead of making another.
    return {
      ...base,
      mode: "create" as const,
      key: newId(),
      post: null,
      values: emptyEditorValues(),
      live: null,
      readers: null,
      outdated: [],
    };
  }
  const post = await loadPostForEdit(db, params.postId, user);
  if (!post) throw data(null, { status: 404 });
  const [view, daily, outdated] = await Promise.all([
    editorView(db, post, locale, base.prefix),
    postViewsByDay(db, [post.id], { days: READERS_DAYS }),
    outdatedTranslations(db, post.id),
  ]);
  const postDaily = daily.get(post.id) ?? [];
  return {
    ...base,
    mode: "edit" as const,
    key: null,
    post: {
      id: post.id,
      version: post.version,
      status: post.status,
      // The bar's "Saved 12:04": a live post's pending changes, or the post.
      savedAt: view.live?.pendingAt ?? post.updatedAt,
      // Someone else's post (an admin edits every post): the editor says whose byline it keeps.
      byline: post.authorId === user.id ? null : { name: post.authorName },
      // The newsletter box is offered until the post first goes live.
      newsletter: post.newsletterSent
        ? ("sent" as const)
        : post.status === "published"
          ? ("live" as const)
          : ("offered" as const),
    },
    values: view.values,
    live: view.live,
    readers: { days: READERS_DAYS, views: postDaily.reduce((n, v) => n + v, 0), daily: postDaily },
    // The language versions out of date, with what changed in the other one since (issue 47).
    outdated,
  };
}

interface EditorActionData {
  fieldErrors?: FieldErrors;
  conflict?: ConflictInfo;
  /** What was submitted, so a page rendered without JavaScript shows it again. */
  values: Record<string, string>;
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const user = await requireAdmin(context, request);
  const app = getApp(context);
  const locale = getRequest(context).locale;
  const prefix = getRequest(context).prefix;
  const form = await readForm(request);
  // "Discard unpublished changes" of a live post: its own small form, without the editor's fields.
  if (form.get("intent") === "discard" && params.postId) {
    const version = Number(form.get("version"));
    if (!Number.isInteger(version) || version < 1) throw data(null, { status: 400 });
    const outcome = await discardPendingEdit(app.db, user, params.postId, version);
    if (outcome === "notFound") throw data(null, { status: 404 });
    const flash = outcome === "discarded" ? "editor:flash.discarded" : "editor:flash.discardConflict";
    if (outcome === "discarded") writeChangesPost(getRequest(context), params.postId);
    return redirect(`${prefix}/posts/edit/${params.postId}`, {
      headers: flashHeaders(flashOptions(app.env), outcome === "discarded" ? "success" : "error", flash),
    });
  }
  // "Mark as up to date": a language version is in line with the other one (its own small form).
  if (form.get("intent") === "markInLine" && params.postId) {
    const lang = form.get("locale");
    if (lang !== "en" && lang !== "zh") throw data(null, { status: 400 });
    const outcome = await markTranslationInLine(app.db, user, params.postId, lang);
    if (outcome === "notFound") throw data(null, { status: 404 });
    // Readers may be told that this version is out of date: its pages leave the cache.
    if (outcome === "marked") writeChangesPost(getRequest(context), params.postId);
    return redirect(`${prefix}/posts/edit/${params.postId}`, {
      headers: flashHeaders(flashOptions(app.env), "success", "translations:flash.markedInLine"),
    });
  }
  // "Publish these changes at": schedules a live post's pending changes (its own small form).
  if (form.get("intent") === "schedule" && params.postId) {
    const version = Number(form.get("version"));
    const tz = String(form.get("updateAtTz") ?? "0");
    if (!Number.isInteger(version) || version < 1 || !/^-?\d{1,4}$/.test(tz)) throw data(null, { status: 400 });
    const at = localDateTimeToIso(String(form.get("updateAtLocal") ?? ""), Number(tz));
    const outcome = at ? await schedulePendingUpdate(app.db, { user, postId: params.postId, version, at }) : "past";
    if (outcome === "notFound") throw data(null, { status: 404 });
    if (outcome === "scheduled") {
      getRequest(context).log.info({ postId: params.postId, at }, "update scheduled");
      return redirect(`${prefix}/posts/edit/${params.postId}`, {
        headers: flashHeaders(flashOptions(app.env), "success", "editor:flash.updateScheduled"),
      });
    }
    const current = await loadPostForEdit(app.db, params.postId, user);
    if (!current) throw data(null, { status: 404 });
    const error = outcome === "past" ? "editor:errors.updateAtInvalid" : "editor:errors.scheduleStale";
    const shown = (await editorView(app.db, current, locale, prefix)).values;
    return data<EditorActionData>(
      { fieldErrors: { form: error }, values: shown },
      { status: outcome === "past" ? 400 : 409 },
    );
  }
  const values = editorValuesFromForm(form);
  const parsed = validate(postFormSchema, form);
  if (!parsed.ok) return data<EditorActionData>({ fieldErrors: parsed.errors, values }, { status: 400 });

  const toEdit = (
    id: string,
    key: "editor:flash.created" | "editor:flash.saved" | "editor:flash.pendingSaved" | "editor:flash.updated",
  ) => redirect(`${prefix}/posts/edit/${id}`, { headers: flashHeaders(flashOptions(app.env), "success", key) });
  const conflictAnswer = async (postId: string) => {
    const current = await loadPostForEdit(app.db, postId, user);
    if (!current) throw data(null, { status: 404 });
    const conflict: ConflictInfo = {
      version: current.version,
      updatedAt: current.updatedAt,
      status: current.status,
      values: (await editorView(app.db, current, locale, prefix)).values,
    };
    return data<EditorActionData>({ conflict, values }, { status: 409 });
  };

  // A live post that stays live: Save keeps the changes pending, Update publishes them.
  const intent = form.get("intent");
  const live = params.postId ? await isLivePost(app.db, params.postId, user) : false;
  if (params.postId && live && parsed.data.status === "published" && intent !== "update") {
    const pending = await savePendingEdit(app.db, user, params.postId, parsed.data);
    if (pending.ok && parsed.data.federate !== undefined) {
      await setPostFederate(app.db, params.postId, user, parsed.data.federate);
    }
    if (pending.ok) {
      const req = getRequest(context);
      writeChangesPost(req, pending.id);
      req.log.info({ postId: pending.id, version: pending.version }, "pending changes saved");
      return toEdit(pending.id, "editor:flash.pendingSaved");
    }
    if (pending.reason === "invalid")
      return data<EditorActionData>({ fieldErrors: pending.fieldErrors, values }, { status: 400 });
    if (pending.reason === "conflict") return conflictAnswer(params.postId);
    throw data(null, { status: 404 });
  }

  const result = params.postId
    ? await updateEditorPost(app.db, user, params.postId, parsed.data)
    : await createEditorPost(app.db, user.id, parsed.data);

  if (result.ok) {
    const req = getRequest(context);
    // The lifecycle dropped what the save changed (a draft's pages only, a live post's where it is shown).
    lifecycleAnnounced(req);
    req.log.info({ postId: result.id, version: result.version, created: result.created }, "post saved");
    const flash = result.created
      ? "editor:flash.created"
      : live && intent === "update"
        ? "editor:flash.updated"
        : "editor:flash.saved";
    return toEdit(result.id, flash);
  }
  switch (result.reason) {
    case "duplicate":
      // The same form was submitted twice: its first submit made this post.
      return toEdit(result.id, "editor:flash.created");
    case "invalid":
      return data<EditorActionData>({ fieldErrors: result.fieldErrors, values }, { status: 400 });
    case "conflict":
      return conflictAnswer(result.current.id);
    case "notFound":
      throw data(null, { status: 404 });
  }
}

export function meta({ matches, loaderData }: Route.MetaArgs) {
  return pageMeta(matches, loaderData?.mode === "edit" ? "editor:form.editTitle" : "editor:form.createTitle", [
    NOINDEX,
  ]);
}

export default function EditorPage({ loaderData, actionData }: Route.ComponentProps) {
  useAdminStrings();
  const { post, key, mode, values, categories, series, prefix, locale } = loaderData;
  return (
    <PostEditor
      // A new version (after a save) or another post starts a fresh editor.
      key={post ? `${post.id}:${post.version}` : `new:${key}`}
      mode={mode}
      formKey={key}
      post={post}
      live={loaderData.live}
      readers={loaderData.readers}
      audience={loaderData.audience}
      outdated={loaderData.outdated}
      loaded={values}
      submitted={actionData?.values ?? null}
      categories={categories}
      series={series}
      fieldErrors={actionData?.fieldErrors ?? null}
      conflict={actionData?.conflict ?? null}
      prefix={prefix}
      uiLocale={locale}
    />
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <EditorErrorBoundary error={error} />;
}
