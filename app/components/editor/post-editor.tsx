import { type CSSProperties, type FormEvent, useEffect, useReducer, useRef, useState } from "react";
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
import { HTML_LANG, type Locale } from "../../lib/i18n/locale.ts";
import { useMessage } from "../../lib/i18n/use-message.ts";
import {
  EDITOR_LOCALES,
  type EditorStatus,
  localeOfField,
  POST_LIMITS,
  postFormSchema,
  translationField,
} from "../../lib/schemas/post.ts";
import { slugify } from "../../lib/slug.ts";
import type { PublishAudience } from "../../lib/writing/publish-reach.ts";
import { FormAlert } from "../ui/field.tsx";
import { ConflictView } from "./conflict-view.tsx";
import { EditorBar, type SaveState, type ViewState } from "./editor-bar.tsx";
import { TranslationFields } from "./editor-fields.tsx";
import { DraftOffer, LiveNotice, type LiveState, Readers, type ReadersState } from "./editor-notices.tsx";
import { type ConflictInfo, type DatedBox, editorReducer, initialEditorState, isBackdated } from "./editor-state.ts";
import { dateTimeFormatter, FORM_ID, LINK, savedTimeFormatter } from "./editor-ui.ts";
import { LanguageTabs } from "./language-tabs.tsx";
import { LeaveGuard } from "./leave-guard.tsx";
import {
  draftStorageKey,
  draftWasSaved,
  keepViewChoice,
  type LocalDraft,
  readDraft,
  readViewChoice,
  removeDraft,
  writeDraft,
} from "./local-draft.ts";
import { focusField } from "./markdown-editor.tsx";
import { MarkdownPreview } from "./markdown-preview.tsx";
import { PublishActions } from "./publish-dialog.tsx";
import { isWritingField, SettingsPanel } from "./settings-panel.tsx";
import { SourceBeside } from "./source-beside.tsx";
import { OutdatedMark, type OutdatedView, TranslationStatus } from "./translation-status.tsx";
import { usePreviewFollows } from "./use-preview-follows.ts";

export type { ConflictInfo, LiveState };

export interface PostEditorProps {
  mode: "create" | "edit";
  /** The create form's idempotency key. */
  formKey: string | null;
  /** `newsletter`: whether the "email subscribers" box is offered, or the post was live or mailed already. */
  post: {
    id: string;
    version: number;
    /** The stored post's status and when it (or a live post's pending changes) was last saved. */
    status?: EditorStatus;
    savedAt?: string;
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
  readers?: ReadersState | null;
  /** Who publishing would reach (the publish dialog's counts); null: not known. */
  audience?: PublishAudience | null;
  /** The language versions out of date (issue 47, translation-status.tsx). */
  outdated?: readonly OutdatedView[];
}

export const AUTOSAVE_MS = 400;

const LIMIT_VARS: Record<string, number> = { ...POST_LIMITS };

/** The body fills the screen below the bar and the title, and scrolls within itself. */
const EDITOR_HEIGHT = {
  "--editor-min-height": "max(20rem, calc(100vh - 17rem))",
  "--editor-max-height": "max(20rem, calc(100vh - 17rem))",
} as CSSProperties;

/**
 * The one editor screen for creating and editing a post (issue 47): a writing view with the
 * title and body first, under a sticky bar (status, save state, length, views, the primary
 * action); both language versions in tabs; the settings in a side panel; local autosave with
 * restore, a guard against leaving unsaved changes, and the conflict view when someone saved
 * in between. Without JavaScript it is one plain form with every field in it.
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
  const [view, setView] = useState<ViewState>(() => ({
    settings: Object.keys(fieldErrors ?? {}).some((name) => !isWritingField(name)),
    split: false,
    preview: false,
    focus: false,
  }));
  const changeView = (change: Partial<ViewState>) => setView((v) => ({ ...v, ...change }));

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
    const kept = readViewChoice();
    if (kept) setView((v) => ({ ...v, settings: v.settings || kept.settings, split: kept.split }));
  }, []);

  // The panel and the preview beside the text stay as the writer left them, across saves.
  useEffect(() => {
    if (hydrated) keepViewChoice({ settings: view.settings, split: view.split });
  }, [hydrated, view.settings, view.split]);

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
    flushSync(() => {
      if (locale) dispatch({ type: "tab", locale });
      // The field must show: in the settings panel, or the text rather than its preview.
      setView((v) => (isWritingField(first) ? { ...v, preview: false } : { ...v, settings: true, focus: false }));
    });
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
  const hasErrors = Object.keys(errors).length > 0;
  const body = values[translationField(active, "Body")] ?? "";
  const previewRef = usePreviewFollows(formRef, `${active}Body`, hydrated && view.split && !view.preview, body);

  // Escape leaves focus mode.
  useEffect(() => {
    if (!view.focus) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape" && !document.querySelector("dialog[open]")) setView((v) => ({ ...v, focus: false }));
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [view.focus]);

  const save: SaveState = busy
    ? { kind: "saving" }
    : dirty
      ? { kind: "unsaved" }
      : post?.savedAt
        ? { kind: "saved", time: savedTimeFormatter(uiLocale, !hydrated)(post.savedAt) }
        : { kind: "new" };

  return (
    <div
      data-writing-view=""
      data-focus={view.focus ? "" : undefined}
      className={view.focus ? "fixed inset-0 z-50 overflow-y-auto bg-white px-4 pb-8 dark:bg-zinc-950" : "space-y-4"}
    >
      <header className={view.focus ? "sr-only" : "flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1"}>
        <h1 className="text-xl font-bold">{mode === "create" ? t("form.createTitle") : t("form.editTitle")}</h1>
        <nav className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
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

      {post?.byline && !view.focus && (
        <p className="text-sm text-zinc-700 dark:text-zinc-300" data-testid="other-author">
          {post.byline.name ? t("form.otherAuthor", { name: post.byline.name }) : t("form.otherAuthorUnnamed")}
        </p>
      )}

      <TranslationStatus outdated={props.outdated ?? []} uiLocale={uiLocale} />

      {offer && (
        <DraftOffer
          offer={offer}
          time={formatLocal(offer.savedAt)}
          onRestore={() => restore(offer)}
          onDiscard={() => {
            removeDraft(storageKey);
            dispatch({ type: "discardOffer" });
          }}
        />
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

      <Form ref={formRef} id={FORM_ID} method="post" encType="multipart/form-data" noValidate onSubmit={onSubmit}>
        {formKey && <input type="hidden" name="key" value={formKey} />}
        {version !== null && <input type="hidden" name="version" value={version} />}
        <input type="hidden" name="publishAtTz" value={values.publishAtTz ?? "0"} />

        <EditorBar
          status={post?.status ?? null}
          pending={Boolean(live?.pendingAt)}
          save={save}
          kept={keptAt !== null && dirty ? t("form.keptLocally", { time: formatLocal(keptAt) }) : null}
          body={body}
          locale={active}
          hydrated={hydrated}
          view={view}
          onView={changeView}
        >
          <PublishActions
            values={values}
            live={live !== null}
            busy={busy}
            hydrated={hydrated}
            newsletter={post?.newsletter ?? "offered"}
            audience={props.audience ?? null}
            uiLocale={uiLocale}
            form={formRef}
            setStatus={set("status")}
          />
        </EditorBar>

        <div className="mt-4 flex flex-col gap-6 lg:flex-row">
          <div className={`min-w-0 flex-1 ${view.split && !view.preview ? "lg:grid lg:grid-cols-2 lg:gap-6" : ""}`}>
            <div className={view.focus ? "mx-auto max-w-3xl" : "min-w-0"} style={EDITOR_HEIGHT}>
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
                      <TranslationFields locale={locale} values={values} set={set} err={err} hidden={view.preview} />
                    </SourceBeside>
                  ),
                }))}
              />
              {hydrated && view.preview && (
                <div className="pt-5">
                  <MarkdownPreview
                    markdown={body}
                    lang={HTML_LANG[active]}
                    active
                    title={values[translationField(active, "Title")] ?? ""}
                  />
                </div>
              )}
            </div>
            {hydrated && view.split && !view.preview && (
              <div className="hidden pt-14 lg:block">
                <MarkdownPreview
                  markdown={body}
                  lang={HTML_LANG[active]}
                  active
                  scrollRef={previewRef}
                  boxClassName="max-h-[max(20rem,calc(100vh-17rem))] overflow-y-auto overscroll-contain"
                />
              </div>
            )}
          </div>
          <SettingsPanel
            open={view.settings && !view.focus}
            onClose={() => changeView({ settings: false })}
            mode={mode}
            active={active}
            hydrated={hydrated}
            zone={zone}
            values={values}
            set={set}
            err={err}
            statusError={err("status")}
            categories={categories}
            series={props.series}
            newsletter={post?.newsletter ?? "offered"}
            autoSlug={slugify(values.enTitle ?? "")}
            onPublishAt={(value) =>
              dispatch({ type: "publishAt", value, offset: hydrated ? String(browserOffsetAt(value)) : "0" })
            }
            datedBox={datedBox}
          />
        </div>
      </Form>

      {!view.focus && live && <LiveNotice live={live} uiLocale={uiLocale} version={post?.version ?? null} />}
      {!view.focus && post && props.readers && <Readers postId={post.id} readers={props.readers} />}

      <LeaveGuard dirty={dirty && !busy} onLeave={() => saveLocalRef.current()} />
    </div>
  );
}
