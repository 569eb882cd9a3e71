import { type FormEvent, type ReactNode, useEffect, useId, useRef, useState } from "react";
import { flushSync } from "react-dom";
import { useTranslation } from "react-i18next";
import { Form, Link, useNavigation } from "react-router";
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
  POST_STATUSES,
  postFormSchema,
  type TranslationField,
  translationField,
} from "../../lib/schemas/post.ts";
import { slugify } from "../../lib/slug.ts";
import { UploadButton } from "../media/upload-button.tsx";
import { FormAlert } from "../ui/field.tsx";
import { LanguageTabs } from "./language-tabs.tsx";
import { LeaveGuard } from "./leave-guard.tsx";
import { draftStorageKey, draftWasSaved, type LocalDraft, readDraft, removeDraft, writeDraft } from "./local-draft.ts";
import { focusField, MarkdownEditor } from "./markdown-editor.tsx";
import { MarkdownPreview } from "./markdown-preview.tsx";

/** The saved version a save collided with (409), as the action returns it. */
export interface ConflictInfo {
  version: number;
  updatedAt: string;
  status: EditorStatus;
  values: EditorValues;
}

export interface PostEditorProps {
  mode: "create" | "edit";
  /** The create form's idempotency key. */
  formKey: string | null;
  post: { id: string; version: number } | null;
  /** The form as loaded (the stored post, or empty). */
  loaded: EditorValues;
  /** What was submitted, when the action answered with errors (a page rendered without JavaScript). */
  submitted: EditorValues | null;
  categories: Array<{ id: string; name: string }>;
  fieldErrors: FieldErrors | null;
  conflict: ConflictInfo | null;
  prefix: string;
  uiLocale: Locale;
}

export const FORM_ID = "post-editor";
export const AUTOSAVE_MS = 400;

const CONTROL =
  "block w-full rounded-md border border-zinc-300 bg-white px-3 py-2 text-zinc-900 shadow-sm focus:border-blue-600 focus:outline-none focus:ring-2 focus:ring-blue-600/40 aria-[invalid]:border-red-600 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100";
const LINK = "text-blue-700 underline dark:text-blue-400";
const BUTTON_SECONDARY =
  "rounded-md border border-zinc-300 px-3 py-1.5 text-sm hover:bg-zinc-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-600 dark:border-zinc-700 dark:hover:bg-zinc-800";

const LIMIT_VARS: Record<string, number> = { ...POST_LIMITS };

/** A labelled, controlled input or textarea with its hint and error tied to it. */
function TextField({
  label,
  name,
  value,
  onChange,
  error,
  hint,
  rows,
  lang,
  type = "text",
  placeholder,
  autoComplete = "off",
}: {
  label: string;
  name: string;
  value: string;
  onChange(value: string): void;
  error?: string | null;
  hint?: string;
  rows?: number;
  lang?: string;
  type?: "text" | "url" | "datetime-local";
  placeholder?: string;
  autoComplete?: string;
}) {
  const id = useId();
  const describedBy = [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(" ") || undefined;
  const common = {
    id,
    name,
    value,
    lang,
    placeholder,
    "aria-invalid": error ? true : undefined,
    "aria-describedby": describedBy,
    className: CONTROL,
  };
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium">
        {label}
      </label>
      {rows ? (
        <textarea {...common} rows={rows} onChange={(e) => onChange(e.target.value)} />
      ) : (
        <input {...common} type={type} autoComplete={autoComplete} onChange={(e) => onChange(e.target.value)} />
      )}
      {hint && (
        <p id={`${id}-hint`} className="text-sm text-zinc-600 dark:text-zinc-400">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      )}
    </div>
  );
}

/** Date and time in the reader's language: the browser's zone, or UTC (same on server and browser). */
function dateTimeFormatter(locale: Locale, utc: boolean) {
  return (ms: number | string) => {
    const text = new Intl.DateTimeFormat(HTML_LANG[locale], {
      dateStyle: "medium",
      timeStyle: "short",
      ...(utc ? { timeZone: "UTC" } : {}),
    }).format(new Date(ms));
    // dateStyle cannot be combined with timeZoneName: name the zone by hand.
    return utc ? `${text} UTC` : text;
  };
}

/** Which language tab opens first: the reader's, unless only the other one has text. */
function firstTab(values: EditorValues, uiLocale: Locale): Locale {
  const other: Locale = uiLocale === "en" ? "zh" : "en";
  const has = (l: Locale) => values[translationField(l, "Title")] !== "";
  return !has(uiLocale) && has(other) ? other : uiLocale;
}

/**
 * The one editor screen for creating and editing a post: both language versions in
 * tabs, the shared settings, local autosave with restore, a guard against leaving
 * unsaved changes, and the conflict view when someone saved in between.
 */
export function PostEditor(props: PostEditorProps) {
  const { mode, formKey, post, loaded, submitted, categories, fieldErrors, conflict, prefix, uiLocale } = props;
  const { t } = useTranslation("editor");
  const m = useMessage();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod?.toUpperCase() === "POST";
  const formRef = useRef<HTMLFormElement>(null);
  const conflictHeading = useRef<HTMLHeadingElement>(null);
  const storageKey = draftStorageKey(post?.id ?? null);
  const formatLocal = dateTimeFormatter(uiLocale, false);
  const formatUtc = dateTimeFormatter(uiLocale, true);

  const [initial, setInitial] = useState(loaded);
  const [values, setValues] = useState(submitted ?? loaded);
  const [version, setVersion] = useState<number | null>(post?.version ?? null);
  const [active, setActive] = useState<Locale>(() => firstTab(submitted ?? loaded, uiLocale));
  const [clientErrors, setClientErrors] = useState<FieldErrors | null>(null);
  const [offer, setOffer] = useState<LocalDraft | null>(null);
  const [dismissedConflict, setDismissedConflict] = useState<ConflictInfo | null>(null);
  const [keptAt, setKeptAt] = useState<number | null>(null);
  const [zone, setZone] = useState<string | null>(null);
  const hydrated = zone !== null;

  const errors: FieldErrors = clientErrors ?? fieldErrors ?? {};
  const shownConflict = conflict && conflict !== dismissedConflict ? conflict : null;
  const dirty = !sameValues(values, initial);

  // Latest values for callbacks that outlive a render (timers, the leave guard).
  const latest = useRef({ values, initial, version });
  latest.current = { values, initial, version };

  const set = (name: string) => (value: string) => setValues((v) => ({ ...v, [name]: value }));

  const saveLocal = (submittedAt?: number) => {
    const { values: now, initial: base, version: baseVersion } = latest.current;
    if (submittedAt === undefined && sameValues(now, base)) {
      removeDraft(storageKey);
      setKeptAt(null);
      return;
    }
    const savedAt = submittedAt ?? Date.now();
    const draft: LocalDraft = { savedAt, submittedAt, key: formKey, baseVersion, values: now };
    if (writeDraft(storageKey, draft)) setKeptAt(savedAt);
  };
  const saveLocalRef = useRef(saveLocal);
  saveLocalRef.current = saveLocal;

  // On load: times move to the browser's zone, saved drafts are cleared, and an
  // unsaved one is offered.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once, with the props the page loaded with
  useEffect(() => {
    setZone(Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC");
    const local = toBrowserTime(loaded);
    setInitial(local);
    setValues((v) => (v === loaded ? local : toBrowserTime(v)));
    if (post) {
      const fresh = readDraft(draftStorageKey(null));
      if (fresh && draftWasSaved(fresh, post)) removeDraft(draftStorageKey(null));
    }
    const draft = readDraft(storageKey);
    if (!draft) return;
    if ((post && draftWasSaved(draft, post)) || sameValues(draft.values, local)) removeDraft(storageKey);
    else setOffer(draft);
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
    if (locale) flushSync(() => setActive(locale));
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
      setClientErrors(result.errors);
      reveal(result.errors);
      return;
    }
    setClientErrors(null);
    clearTimeout(autosave.current);
    saveLocal(Date.now());
  };

  const restore = (draft: LocalDraft) => {
    setValues(draft.values);
    // A draft made on an older version must not silently overwrite the newer one:
    // saving it goes through the conflict view.
    if (post && draft.baseVersion !== null && draft.baseVersion < post.version) setVersion(draft.baseVersion);
    setActive(firstTab(draft.values, uiLocale));
    setOffer(null);
  };

  const loadTheirs = (theirs: ConflictInfo) => {
    removeDraft(storageKey);
    const local = toBrowserTime(theirs.values);
    setValues(local);
    setInitial(local);
    setVersion(theirs.version);
    setClientErrors(null);
    setDismissedConflict(theirs);
  };

  const err = (name: string) => (errors[name] ? m(errors[name] ?? "", LIMIT_VARS) : null);
  const localesWithErrors = new Set(Object.keys(errors).map(localeOfField));
  const tabLabel = (l: Locale) => (l === "en" ? t("form.tabEn") : t("form.tabZh"));
  const editHref = post ? `${prefix}/posts/edit/${post.id}` : `${prefix}/posts/createPost`;

  const translationPanel = (locale: Locale): ReactNode => {
    const name = (f: TranslationField) => translationField(locale, f);
    const lang = HTML_LANG[locale];
    return (
      <>
        <TextField
          label={t("form.title")}
          name={name("Title")}
          value={values[name("Title")] ?? ""}
          onChange={set(name("Title"))}
          error={err(name("Title"))}
          lang={lang}
        />
        <TextField
          label={t("form.summary")}
          name={name("Summary")}
          value={values[name("Summary")] ?? ""}
          onChange={set(name("Summary"))}
          error={err(name("Summary"))}
          rows={3}
          lang={lang}
        />
        <MarkdownEditor
          name={name("Body")}
          label={t("form.body")}
          hint={t("form.bodyHint")}
          value={values[name("Body")] ?? ""}
          onChange={set(name("Body"))}
          error={err(name("Body"))}
          lang={lang}
          images
        />
        <MarkdownPreview markdown={values[name("Body")] ?? ""} lang={lang} active={hydrated && active === locale} />
        <fieldset className="space-y-4 rounded-md border border-zinc-200 p-4 dark:border-zinc-800">
          <legend className="px-1 text-sm font-medium">{t("form.seo")}</legend>
          <TextField
            label={t("form.seoTitle")}
            name={name("SeoTitle")}
            value={values[name("SeoTitle")] ?? ""}
            onChange={set(name("SeoTitle"))}
            error={err(name("SeoTitle"))}
            hint={t("form.seoTitleHint")}
            lang={lang}
          />
          <TextField
            label={t("form.seoDescription")}
            name={name("SeoDescription")}
            value={values[name("SeoDescription")] ?? ""}
            onChange={set(name("SeoDescription"))}
            error={err(name("SeoDescription"))}
            hint={t("form.seoDescriptionHint")}
            rows={2}
            lang={lang}
          />
        </fieldset>
      </>
    );
  };

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
          <Link to={`${prefix}/posts/myPosts`} className={LINK}>
            {t("form.backToList")}
          </Link>
        </nav>
      </header>

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
              setOffer(null);
            }}
          >
            {t("draft.discard")}
          </button>
        </div>
      )}

      {shownConflict && (
        <section
          aria-labelledby="conflict-title"
          data-testid="conflict"
          className="space-y-4 rounded-md border border-amber-400 bg-amber-50 p-4 text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-50"
        >
          <h2 id="conflict-title" ref={conflictHeading} tabIndex={-1} className="text-lg font-semibold">
            {t("conflict.title")}
          </h2>
          <p className="text-sm">
            {t("conflict.intro", { version: shownConflict.version, time: formatUtc(shownConflict.updatedAt) })}
          </p>
          <p className="text-sm">{t("conflict.savedStatus", { status: t(`status.${shownConflict.status}`) })}</p>
          {EDITOR_LOCALES.map((locale) => {
            const title = translationField(locale, "Title");
            const body = translationField(locale, "Body");
            const side = (v: EditorValues, heading: string, testId: string) => (
              <div data-testid={testId} className="min-w-0 space-y-1">
                <h4 className="text-sm font-semibold">{heading}</h4>
                {v[title] ? (
                  <>
                    <p className="text-sm">
                      <span className="font-medium">{t("conflict.titleLabel")}: </span>
                      <span lang={HTML_LANG[locale]}>{v[title]}</span>
                    </p>
                    <p className="text-sm font-medium">{t("conflict.bodyLabel")}:</p>
                    <pre
                      lang={HTML_LANG[locale]}
                      className="max-h-48 overflow-auto whitespace-pre-wrap rounded bg-white/70 p-2 text-xs dark:bg-black/30"
                    >
                      {v[body]}
                    </pre>
                  </>
                ) : (
                  <p className="text-sm italic">{t("conflict.none")}</p>
                )}
              </div>
            );
            const same = values[title] === shownConflict.values[title] && values[body] === shownConflict.values[body];
            return (
              <div key={locale} className="space-y-2">
                <h3 className="font-medium">{tabLabel(locale)}</h3>
                {same ? (
                  <p className="text-sm">{t("conflict.same")}</p>
                ) : (
                  <div className="grid gap-4 md:grid-cols-2">
                    {side(values, t("conflict.yours"), `conflict-yours-${locale}`)}
                    {side(shownConflict.values, t("conflict.theirs"), `conflict-theirs-${locale}`)}
                  </div>
                )}
              </div>
            );
          })}
          <div className="flex flex-wrap gap-3">
            <button
              type="submit"
              form={FORM_ID}
              name="overwriteVersion"
              value={String(shownConflict.version)}
              disabled={busy}
              className="rounded-md bg-blue-700 px-4 py-2 text-sm font-medium text-white hover:bg-blue-800 disabled:opacity-60"
            >
              {t("conflict.overwrite")}
            </button>
            <a
              href={editHref}
              onClick={(event) => {
                event.preventDefault();
                loadTheirs(shownConflict);
              }}
              className={`${BUTTON_SECONDARY} inline-block`}
            >
              {t("conflict.discard")}
            </a>
          </div>
        </section>
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
          onChange={setActive}
          errorLabel={t("form.tabHasErrors")}
          tabs={EDITOR_LOCALES.map((locale) => ({
            locale,
            label: tabLabel(locale),
            hasErrors: localesWithErrors.has(locale),
            content: translationPanel(locale),
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
              setValues((v) => ({
                ...v,
                publishAtLocal: value,
                publishAtTz: hydrated ? String(browserOffsetAt(value)) : "0",
              }))
            }
            error={err("publishAtLocal")}
            hint={zone ? t("form.publishAtHintLocal", { zone }) : t("form.publishAtHintUtc")}
          />
        </fieldset>

        <div className="flex flex-wrap items-center gap-4">
          <button
            type="submit"
            disabled={busy}
            className="rounded-md bg-blue-700 px-6 py-2 font-medium text-white hover:bg-blue-800 focus:outline-none focus:ring-2 focus:ring-blue-600/50 disabled:opacity-60"
          >
            {busy ? t("form.saving") : t("form.save")}
          </button>
          <p className="text-sm text-zinc-600 dark:text-zinc-400" data-testid="kept-locally">
            {keptAt !== null && dirty ? t("form.keptLocally", { time: formatLocal(keptAt) }) : null}
          </p>
        </div>
      </Form>

      <LeaveGuard dirty={dirty && !busy} onLeave={() => saveLocalRef.current()} />
    </div>
  );
}

function CategorySelect({
  label,
  none,
  categories,
  value,
  onChange,
  error,
}: {
  label: string;
  none: string;
  categories: Array<{ id: string; name: string }>;
  value: string;
  onChange(value: string): void;
  error: string | null;
}) {
  const id = useId();
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium">
        {label}
      </label>
      <select
        id={id}
        name="categoryId"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        className={CONTROL}
      >
        <option value="">{none}</option>
        {categories.map((c) => (
          <option key={c.id} value={c.id}>
            {c.name}
          </option>
        ))}
      </select>
      {error && (
        <p id={`${id}-error`} className="text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      )}
    </div>
  );
}
