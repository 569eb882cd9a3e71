import { type FormEvent, type ReactNode, useEffect, useId, useReducer, useRef } from "react";
import { flushSync } from "react-dom";
import { useTranslation } from "react-i18next";
import { Form, useNavigation } from "react-router";
import { Link } from "../../lean/link.tsx";
import {
  browserOffsetAt,
  EDITOR_FIELDS,
  type EditorValues,
  sameValues,
  toBrowserTime,
} from "../../lib/editor-values.ts";
import { type FieldErrors, validate } from "../../lib/forms.ts";
import type { Locale } from "../../lib/i18n/locale.ts";
import { useMessage } from "../../lib/i18n/use-message.ts";
import { EDITOR_LOCALES, localeOfField, POST_LIMITS, POST_STATUSES, postFormSchema } from "../../lib/schemas/post.ts";
import { slugify } from "../../lib/slug.ts";
import { Sparkline } from "../admin/line-chart.tsx";
import { UploadButton } from "../media/upload-button.tsx";
import { FormAlert } from "../ui/field.tsx";
import { ConflictView } from "./conflict-view.tsx";
import { CategorySelect, SeriesFields, TextField, TranslationFields } from "./editor-fields.tsx";
import { type ConflictInfo, type DatedBox, editorReducer, initialEditorState, isBackdated } from "./editor-state.ts";
import { BUTTON_SECONDARY, dateTimeFormatter, FORM_ID, LINK } from "./editor-ui.ts";
import { LanguageTabs } from "./language-tabs.tsx";
import { LeaveGuard } from "./leave-guard.tsx";
import { draftStorageKey, draftWasSaved, type LocalDraft, readDraft, removeDraft, writeDraft } from "./local-draft.ts";
import { focusField } from "./markdown-editor.tsx";
import { SourceBeside } from "./source-beside.tsx";
import { OutdatedMark, type OutdatedView, TranslationStatus } from "./translation-status.tsx";

export type { ConflictInfo };

export interface PostEditorProps {
  mode: "create" | "edit";
  /** The create form's idempotency key. */
  formKey: string | null;
  /** `newsletter`: whether the "email subscribers" box is offered, or the post was live or mailed already. */
  post: {
    id: string;
    version: number;
    newsletter?: "offered" | "live" | "sent";
    /** Set when another account wrote the post: its author's name (null: none), kept as the byline. */
    byline?: { name: string | null } | null;
  } | null;
  /** The form as loaded (the stored post, or empty). */
  loaded: EditorValues;
  /** What was submitted, when the action answered with errors (a page rendered without JavaScript). */
  submitted: EditorValues | null;
  categories: Array<{ id: string; name: string }>;
  /** Every series, named in the admin's language, for the series menu. */
  series: Array<{ id: string; name: string }>;
  fieldErrors: FieldErrors | null;
  conflict: ConflictInfo | null;
  prefix: string;
  uiLocale: Locale;
  /**
   * A live post: when readers' version was published, when its pending changes were last
   * saved (null: none) and where to compare them with readers' version.
   */
  live?: LiveState | null;
  /** The post's reads over the last days (Insights), for a post being edited. */
  readers?: { days: number; views: number; daily: number[] } | null;
  /** The language versions out of date (issue 47, translation-status.tsx). */
  outdated?: readonly OutdatedView[];
}

export interface LiveState {
  /** When what readers see was saved. */
  savedAt: string;
  pendingAt: string | null;
  compareHref: string | null;
  /** When the pending changes are scheduled to go live; null: on Update only. */
  scheduledFor: string | null;
}

/**
 * "Publish these changes at": a time in the browser's zone (UTC without JavaScript, as the
 * publish time); the scheduled publisher applies the changes then.
 */
function ScheduleUpdateForm({ version }: { version: number }) {
  const { t } = useTranslation("editor");
  const id = useId();
  const tzRef = useRef<HTMLInputElement>(null);
  return (
    <Form method="post" className="flex flex-wrap items-end gap-2">
      <input type="hidden" name="intent" value="schedule" />
      <input type="hidden" name="version" value={version} />
      <input ref={tzRef} type="hidden" name="updateAtTz" defaultValue="0" />
      <div>
        <label htmlFor={id} className="block font-medium">
          {t("live.scheduleAt")}
        </label>
        <input
          id={id}
          type="datetime-local"
          name="updateAtLocal"
          required
          aria-describedby={`${id}-hint`}
          onChange={(e) => {
            if (tzRef.current) tzRef.current.value = String(browserOffsetAt(e.target.value));
          }}
          className="mt-1 rounded-md border border-zinc-300 bg-white px-2 py-1 text-zinc-900 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100"
        />
        <p id={`${id}-hint`} className="mt-1">
          {t("live.scheduleHint")}
        </p>
      </div>
      <button type="submit" className={BUTTON_SECONDARY}>
        {t("live.schedule")}
      </button>
    </Form>
  );
}

/** Which version readers see, and whether unpublished changes wait for Update. */
/** The post's readers in a small box: its views over the last days, and the way to the full page. */
function Readers({ postId, readers }: { postId: string; readers: NonNullable<PostEditorProps["readers"]> }) {
  const { t } = useTranslation("editor");
  const id = useId();
  return (
    <aside
      aria-labelledby={id}
      className="flex flex-wrap items-center gap-x-4 gap-y-1 rounded-md border border-zinc-200 px-4 py-2 text-sm dark:border-zinc-800"
      data-testid="editor-readers"
    >
      <h2 id={id} className="font-semibold">
        {t("readers.title", { count: readers.days })}
      </h2>
      <span className="tabular-nums">{t("readers.views", { count: readers.views })}</span>
      <Sparkline values={readers.daily} />
      <Link to={`/admin/insights/posts/${postId}`} className={LINK}>
        {t("readers.more")}
      </Link>
    </aside>
  );
}

function LiveNotice({ live, uiLocale, version }: { live: LiveState; uiLocale: Locale; version: number | null }) {
  const { t } = useTranslation("editor");
  const format = dateTimeFormatter(uiLocale, true);
  return (
    <div
      data-testid="live-notice"
      className="space-y-1 rounded-md border border-blue-300 bg-blue-50 px-4 py-3 text-sm text-blue-950 dark:border-blue-800 dark:bg-blue-950 dark:text-blue-100"
    >
      <p>{t("live.notice", { time: format(live.savedAt) })}</p>
      {live.pendingAt ? (
        <p>
          <strong>{t("live.pending", { time: format(live.pendingAt) })}</strong>{" "}
          {live.compareHref && (
            <Link to={live.compareHref} className={LINK}>
              {t("live.compare")}
            </Link>
          )}
        </p>
      ) : null}
      {live.pendingAt && version !== null ? (
        <>
          {live.scheduledFor && (
            <p data-testid="update-scheduled">{t("live.scheduled", { time: format(live.scheduledFor) })}</p>
          )}
          <ScheduleUpdateForm version={version} />
          <Form method="post">
            <input type="hidden" name="intent" value="discard" />
            <input type="hidden" name="version" value={version} />
            <button type="submit" className={BUTTON_SECONDARY}>
              {t("live.discard")}
            </button>
          </Form>
        </>
      ) : (
        <p>{t("live.noPending")}</p>
      )}
    </div>
  );
}

export const AUTOSAVE_MS = 400;

const PRIMARY =
  "rounded-md bg-blue-700 px-6 py-2 font-medium text-white hover:bg-blue-800 focus:outline-none focus:ring-2 focus:ring-blue-600/50 disabled:opacity-60";

const LIMIT_VARS: Record<string, number> = { ...POST_LIMITS };

/**
 * A box that follows the publish time until the author sets it (editor-state.ts, FOLLOWS_DATE),
 * with its hint; `children` are hidden fields sent with it.
 */
function DatedBoxField(props: {
  name: DatedBox;
  label: string;
  hint: string;
  checked: boolean;
  onChange: (on: boolean) => void;
  children?: ReactNode;
}) {
  const hintId = useId();
  return (
    <div>
      {props.children}
      <label className="flex items-center gap-2 text-sm font-medium">
        <input
          type="checkbox"
          name={props.name}
          value="1"
          checked={props.checked}
          onChange={(e) => props.onChange(e.target.checked)}
          aria-describedby={hintId}
        />
        {props.label}
      </label>
      <p id={hintId} className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
        {props.hint}
      </p>
    </div>
  );
}

/**
 * "Email this post to subscribers": offered until the post first goes live (then it
 * is sent once, to the subscribers of each language it has); afterwards a line says
 * whether it was mailed.
 */
function NewsletterChoice(props: {
  state: "offered" | "live" | "sent";
  checked: boolean;
  backdated: boolean;
  onChange: (on: boolean) => void;
}) {
  const { t } = useTranslation("editor");
  if (props.state === "sent")
    return <p className="text-sm text-zinc-700 dark:text-zinc-300">{t("form.newsletterSent")}</p>;
  if (props.state === "live")
    return <p className="text-sm text-zinc-700 dark:text-zinc-300">{t("form.newsletterLive")}</p>;
  return (
    <DatedBoxField
      name="newsletter"
      label={t("form.newsletter")}
      hint={props.backdated && props.checked ? t("form.newsletterBackdated") : t("form.newsletterHint")}
      checked={props.checked}
      onChange={props.onChange}
    />
  );
}

/**
 * "Share on the Fediverse": whether the post goes to the blog's Fediverse followers (issue 22).
 * On for new posts, off for back-dated ones unless the author ticks it; turning it off after
 * the post was sent takes it back there. The hidden field says the form has the box (an
 * unticked box sends nothing).
 */
function FederateChoice(props: { checked: boolean; backdated: boolean; onChange: (on: boolean) => void }) {
  const { t } = useTranslation("editor");
  return (
    <DatedBoxField
      name="federate"
      label={t("form.federate")}
      hint={props.backdated && !props.checked ? t("form.federateBackdated") : t("form.federateHint")}
      checked={props.checked}
      onChange={props.onChange}
    >
      <input type="hidden" name="federateShown" value="1" />
    </DatedBoxField>
  );
}

/**
 * The one editor screen for creating and editing a post: both language versions in
 * tabs, the shared settings, local autosave with restore, a guard against leaving
 * unsaved changes, and the conflict view when someone saved in between.
 */
export function PostEditor(props: PostEditorProps) {
  const { mode, formKey, post, loaded, submitted, categories, fieldErrors, conflict, prefix, uiLocale } = props;
  const live = props.live ?? null;
  const { t } = useTranslation("editor");
  const m = useMessage();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod?.toUpperCase() === "POST";
  const formRef = useRef<HTMLFormElement>(null);
  const conflictHeading = useRef<HTMLHeadingElement>(null);
  const storageKey = draftStorageKey(post?.id ?? null);
  const formatLocal = dateTimeFormatter(uiLocale, false);

  const [state, dispatch] = useReducer(
    editorReducer,
    { loaded, submitted, version: post?.version ?? null, uiLocale },
    initialEditorState,
  );
  const { initial, values, version, active, clientErrors, offer, dismissedConflict, keptAt, zone } = state;
  const hydrated = zone !== null;

  const errors: FieldErrors = clientErrors ?? fieldErrors ?? {};
  const shownConflict = conflict && conflict !== dismissedConflict ? conflict : null;
  const dirty = !sameValues(values, initial);

  // Latest values for callbacks that outlive a render (timers, the leave guard).
  const latest = useRef({ values, initial, version });
  latest.current = { values, initial, version };

  const set = (name: string) => (value: string) => dispatch({ type: "field", name, value });
  /** A dated box's state and setter, and whether the publish time is back-dated. */
  const datedBox = (name: DatedBox) => ({
    checked: values[name] === "1",
    onChange: (on: boolean) => dispatch({ type: name, on }),
    backdated: isBackdated(values.publishAtLocal ?? ""),
  });

  const saveLocal = (submittedAt?: number) => {
    const { values: now, initial: base, version: baseVersion } = latest.current;
    if (submittedAt === undefined && sameValues(now, base)) {
      removeDraft(storageKey);
      dispatch({ type: "kept", at: null });
      return;
    }
    const savedAt = submittedAt ?? Date.now();
    const draft: LocalDraft = { savedAt, submittedAt, key: formKey, baseVersion, values: now };
    if (writeDraft(storageKey, draft)) dispatch({ type: "kept", at: savedAt });
  };
  const saveLocalRef = useRef(saveLocal);
  saveLocalRef.current = saveLocal;

  // On load: times move to the browser's zone, saved drafts are cleared, and an
  // unsaved one is offered.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once, with the props the page loaded with
  useEffect(() => {
    const local = toBrowserTime(loaded);
    if (post) {
      const fresh = readDraft(draftStorageKey(null));
      if (fresh && draftWasSaved(fresh, post)) removeDraft(draftStorageKey(null));
    }
    let draft = readDraft(storageKey);
    if (draft && ((post && draftWasSaved(draft, post)) || sameValues(draft.values, local))) {
      removeDraft(storageKey);
      draft = null;
    }
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
    dispatch({ type: "hydrated", zone, loaded, offer: draft });
  }, []);

  // Autosave while typing (paused while an older draft waits for a decision).
  const autosave = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  // biome-ignore lint/correctness/useExhaustiveDependencies: saving follows the values
  useEffect(() => {
    if (!hydrated || offer) return;
    clearTimeout(autosave.current);
    autosave.current = setTimeout(() => saveLocalRef.current(), AUTOSAVE_MS);
    return () => clearTimeout(autosave.current);
  }, [values, hydrated, offer]);

  const reveal = (errs: FieldErrors) => {
    const first = EDITOR_FIELDS.find((name) => name in errs) ?? Object.keys(errs)[0];
    if (!first) return;
    const locale = localeOfField(first);
    if (locale) flushSync(() => dispatch({ type: "tab", locale }));
    if (formRef.current) focusField(formRef.current, first);
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: react to each new answer of the action
  useEffect(() => {
    if (fieldErrors) reveal(fieldErrors);
  }, [fieldErrors]);

  useEffect(() => {
    if (conflict) conflictHeading.current?.focus();
  }, [conflict]);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    const result = validate(postFormSchema, new FormData(event.currentTarget));
    if (!result.ok) {
      event.preventDefault();
      dispatch({ type: "checked", errors: result.errors });
      reveal(result.errors);
      return;
    }
    dispatch({ type: "checked", errors: null });
    clearTimeout(autosave.current);
    saveLocal(Date.now());
  };

  const restore = (draft: LocalDraft) =>
    dispatch({ type: "restore", draft, postVersion: post?.version ?? null, uiLocale });

  const loadTheirs = (theirs: ConflictInfo) => {
    removeDraft(storageKey);
    dispatch({ type: "loadTheirs", theirs });
  };

  const err = (name: string) => (errors[name] ? m(errors[name] ?? "", LIMIT_VARS) : null);
  const localesWithErrors = new Set(Object.keys(errors).map(localeOfField));
  const tabLabel = (l: Locale) => (l === "en" ? t("form.tabEn") : t("form.tabZh"));
  const editHref = post ? `${prefix}/posts/edit/${post.id}` : `${prefix}/posts/createPost`;

  const autoSlug = slugify(values.enTitle ?? "");
  const statusId = useId();
  const hasErrors = Object.keys(errors).length > 0;

  return (
    <div className="space-y-6">
      <header className="flex flex-wrap items-baseline justify-between gap-4">
        <h1 className="text-2xl font-bold">{mode === "create" ? t("form.createTitle") : t("form.editTitle")}</h1>
        <nav className="flex gap-4 text-sm">
          {post && (
            <Link to={`${prefix}/posts/detail/${post.id}`} className={LINK}>
              {t("form.viewPost")}
            </Link>
          )}
          {post && (
            <Link to={`${prefix}/posts/edit/${post.id}/history`} className={LINK}>
              {t("history.link")}
            </Link>
          )}
          {post && (
            <Link to={`${prefix}/posts/edit/${post.id}/previews`} className={LINK}>
              {t("previews.link")}
            </Link>
          )}
          <Link to={`${prefix}/posts/myPosts`} className={LINK}>
            {t("form.backToList")}
          </Link>
        </nav>
      </header>

      {post?.byline && (
        <p className="text-sm text-zinc-700 dark:text-zinc-300" data-testid="other-author">
          {post.byline.name ? t("form.otherAuthor", { name: post.byline.name }) : t("form.otherAuthorUnnamed")}
        </p>
      )}

      {live && <LiveNotice live={live} uiLocale={uiLocale} version={post?.version ?? null} />}

      {post && props.readers && <Readers postId={post.id} readers={props.readers} />}

      <TranslationStatus outdated={props.outdated ?? []} uiLocale={uiLocale} />

      {offer && (
        <div
          role="status"
          className="flex flex-wrap items-center gap-3 rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100"
        >
          <p className="w-full">{t("draft.found")}</p>
          <button type="button" className={BUTTON_SECONDARY} onClick={() => restore(offer)}>
            {t("draft.restore", { time: formatLocal(offer.savedAt) })}
          </button>
          <button
            type="button"
            className={BUTTON_SECONDARY}
            onClick={() => {
              removeDraft(storageKey);
              dispatch({ type: "discardOffer" });
            }}
          >
            {t("draft.discard")}
          </button>
        </div>
      )}

      {shownConflict && (
        <ConflictView
          conflict={shownConflict}
          values={values}
          busy={busy}
          editHref={editHref}
          uiLocale={uiLocale}
          headingRef={conflictHeading}
          onLoadTheirs={() => loadTheirs(shownConflict)}
        />
      )}

      {hasErrors && (
        <FormAlert>
          {t("form.fixErrors")}
          {errors.form && <> {m(errors.form)}</>}
        </FormAlert>
      )}

      <Form
        ref={formRef}
        id={FORM_ID}
        method="post"
        encType="multipart/form-data"
        noValidate
        onSubmit={onSubmit}
        className="space-y-8"
      >
        {formKey && <input type="hidden" name="key" value={formKey} />}
        {version !== null && <input type="hidden" name="version" value={version} />}
        <input type="hidden" name="publishAtTz" value={values.publishAtTz ?? "0"} />

        <LanguageTabs
          label={t("form.languages")}
          active={active}
          onChange={(locale) => dispatch({ type: "tab", locale })}
          errorLabel={t("form.tabHasErrors")}
          tabs={EDITOR_LOCALES.map((locale) => ({
            locale,
            label: tabLabel(locale),
            hasErrors: localesWithErrors.has(locale),
            mark: props.outdated?.some((o) => o.locale === locale) ? <OutdatedMark locale={locale} /> : null,
            content: (
              <SourceBeside locale={locale} values={values} enabled={hydrated && active === locale}>
                <TranslationFields
                  locale={locale}
                  values={values}
                  set={set}
                  err={err}
                  previewActive={hydrated && active === locale}
                />
              </SourceBeside>
            ),
          }))}
        />

        <fieldset className="space-y-5 rounded-md border border-zinc-200 p-4 dark:border-zinc-800">
          <legend className="px-1 font-medium">{t("form.settings")}</legend>
          <TextField
            label={t("form.slug")}
            name="slug"
            value={values.slug ?? ""}
            onChange={set("slug")}
            error={err("slug")}
            hint={t("form.slugHint")}
            placeholder={mode === "create" && autoSlug ? t("form.slugPlaceholder", { slug: autoSlug }) : undefined}
          />
          <CategorySelect
            label={t("form.category")}
            none={t("form.noCategory")}
            categories={categories}
            value={values.categoryId ?? ""}
            onChange={set("categoryId")}
            error={err("categoryId")}
          />
          <SeriesFields series={props.series} values={values} set={set} err={err} showAll={!hydrated} />
          <TextField
            label={t("form.tags")}
            name="tags"
            value={values.tags ?? ""}
            onChange={set("tags")}
            error={err("tags")}
            hint={t("form.tagsHint")}
          />
          <TextField
            label={t("form.coverUrl")}
            name="coverImageUrl"
            value={values.coverImageUrl ?? ""}
            onChange={set("coverImageUrl")}
            error={err("coverImageUrl")}
            hint={t("form.coverUrlHint")}
          />
          <UploadButton fieldLabel={t("form.coverUrl")} onUploaded={(media) => set("coverImageUrl")(media.url)} />
          <TextField
            label={t("form.coverAlt")}
            name="coverAlt"
            value={values.coverAlt ?? ""}
            onChange={set("coverAlt")}
            error={err("coverAlt")}
          />
          <fieldset aria-describedby={errors.status ? `${statusId}-error` : undefined}>
            <legend className="text-sm font-medium">{t("form.status")}</legend>
            <div className="mt-2 flex flex-wrap gap-4">
              {POST_STATUSES.map((status) => (
                <label key={status} className="flex items-center gap-2 text-sm">
                  <input
                    type="radio"
                    name="status"
                    value={status}
                    checked={values.status === status}
                    onChange={() => set("status")(status)}
                  />
                  {t(`status.${status}`)}
                </label>
              ))}
            </div>
            {errors.status && (
              <p id={`${statusId}-error`} className="mt-1 text-sm text-red-700 dark:text-red-400">
                {err("status")}
              </p>
            )}
          </fieldset>
          <TextField
            label={t("form.publishAt")}
            name="publishAtLocal"
            type="datetime-local"
            value={values.publishAtLocal ?? ""}
            onChange={(value) =>
              dispatch({ type: "publishAt", value, offset: hydrated ? String(browserOffsetAt(value)) : "0" })
            }
            error={err("publishAtLocal")}
            hint={zone ? t("form.publishAtHintLocal", { zone }) : t("form.publishAtHintUtc")}
          />
          <NewsletterChoice state={post?.newsletter ?? "offered"} {...datedBox("newsletter")} />
          <FederateChoice {...datedBox("federate")} />
        </fieldset>

        <div className="flex flex-wrap items-center gap-4">
          {live && values.status === "published" ? (
            <>
              {/* The first button is Enter's: keeping changes pending is the safe default. */}
              <button type="submit" name="intent" value="save" disabled={busy} className={PRIMARY}>
                {busy ? t("form.saving") : t("live.save")}
              </button>
              <button type="submit" name="intent" value="update" disabled={busy} className={PRIMARY}>
                {t("live.update")}
              </button>
            </>
          ) : (
            <button type="submit" disabled={busy} className={PRIMARY}>
              {busy ? t("form.saving") : t("form.save")}
            </button>
          )}
          <p className="text-sm text-zinc-600 dark:text-zinc-400" data-testid="kept-locally">
            {keptAt !== null && dirty ? t("form.keptLocally", { time: formatLocal(keptAt) }) : null}
          </p>
        </div>
      </Form>

      <LeaveGuard dirty={dirty && !busy} onLeave={() => saveLocalRef.current()} />
    </div>
  );
}
