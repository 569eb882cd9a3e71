import {
  type KeyboardEvent,
  type ReactNode,
  type RefObject,
  useEffect,
  useId,
  useRef,
  useSyncExternalStore,
} from "react";
import { useTranslation } from "react-i18next";
import type { EditorValues } from "../../lib/editor-values.ts";
import { HTML_LANG, type Locale } from "../../lib/i18n/locale.ts";
import { EDITOR_LOCALES, POST_STATUSES, type TranslationField, translationField } from "../../lib/schemas/post.ts";
import { UploadButton } from "../media/upload-button.tsx";
import { CategorySelect, SeriesFields, TextField } from "./editor-fields.tsx";
import type { DatedBox } from "./editor-state.ts";
import { BUTTON_SECONDARY } from "./editor-ui.ts";

// The post's settings, in the side panel that opens from the editor's bar (issue 47): each
// language's summary and search-engine fields, the address, category, series, tags, cover,
// status and publish time, and the newsletter and Fediverse boxes. Without JavaScript the
// panel is simply part of the form, after the text.
//
// From 1024 px it is a column beside the text. Below, it is a sheet over the text (a modal
// dialog, the text is not pushed down): it takes the focus when the writer opens it, keeps
// Tab inside, and Escape, its close button or a tap beside it close it and give the focus
// back to the bar's Settings button.

export const SETTINGS_PANEL_ID = "post-settings";

/** The form fields that live in the writing column; every other field is in this panel. */
export function isWritingField(name: string): boolean {
  return /^(en|zh)(Title|Body)$/.test(name);
}

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
export function NewsletterChoice(props: {
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
export function FederateChoice(props: { checked: boolean; backdated: boolean; onChange: (on: boolean) => void }) {
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

/** One language's summary and search-engine fields (the language shown in the editor's tab). */
function LanguageSettings(props: {
  locale: Locale;
  values: EditorValues;
  set: (name: string) => (value: string) => void;
  err: (name: string) => string | null;
  shown: boolean;
  heading: string;
}) {
  const { t } = useTranslation("editor");
  const { locale, values, set, err } = props;
  const name = (f: TranslationField) => translationField(locale, f);
  const lang = HTML_LANG[locale];
  return (
    <section data-language-panel="" className={`space-y-4 ${props.shown ? "" : "hidden"}`}>
      <h3 className="text-sm font-semibold">{props.heading}</h3>
      <TextField
        label={t("form.summary")}
        name={name("Summary")}
        value={values[name("Summary")] ?? ""}
        onChange={set(name("Summary"))}
        error={err(name("Summary"))}
        rows={3}
        lang={lang}
      />
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
    </section>
  );
}

export interface SettingsPanelProps {
  open: boolean;
  onClose(): void;
  mode: "create" | "edit";
  active: Locale;
  hydrated: boolean;
  zone: string | null;
  values: EditorValues;
  set: (name: string) => (value: string) => void;
  err: (name: string) => string | null;
  statusError: string | null;
  categories: Array<{ id: string; name: string }>;
  series: Array<{ id: string; name: string }>;
  newsletter: "offered" | "live" | "sent";
  autoSlug: string;
  onPublishAt(value: string): void;
  datedBox(name: DatedBox): { checked: boolean; onChange(on: boolean): void; backdated: boolean };
}

/** The width from which the panel is a column beside the text (Tailwind's `lg`). */
const WIDE = "(min-width: 64rem)";

function subscribeWide(onChange: () => void): () => void {
  const query = window.matchMedia(WIDE);
  query.addEventListener("change", onChange);
  return () => query.removeEventListener("change", onChange);
}

/** Whether the window is wide enough for the panel beside the text (true on the server). */
function useWide(): boolean {
  return useSyncExternalStore(
    subscribeWide,
    () => window.matchMedia(WIDE).matches,
    () => true,
  );
}

/** The bar's button that opens and closes the panel. */
function settingsToggle(): HTMLElement | null {
  return document.querySelector<HTMLElement>(`[aria-controls="${SETTINGS_PANEL_ID}"]`);
}

const FOCUSABLE = "a[href], button:not([disabled]), input:not([disabled]):not([type=hidden]), select, textarea";

/** The panel's controls that Tab can reach (a hidden language's fields are not). */
function focusables(root: HTMLElement): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => el.checkVisibility());
}

export function SettingsPanel(props: SettingsPanelProps) {
  const titleId = useId();
  const statusId = useId();
  const wide = useWide();
  const panel = useRef<HTMLElement>(null);
  const closeButton = useRef<HTMLButtonElement>(null);
  /** A sheet over the text: a narrow window, with JavaScript. */
  const sheet = props.hydrated && props.open && !wide;

  // Opened from the bar's button: the focus goes into the panel. (Opened as the page loads,
  // the writer's choice kept from before, it stays where it is; opened to show a field's
  // error, the editor focuses that field.)
  useEffect(() => {
    if (props.open && document.activeElement === settingsToggle()) closeButton.current?.focus();
  }, [props.open]);

  const close = () => {
    const hadFocus = panel.current?.contains(document.activeElement) ?? false;
    props.onClose();
    if (hadFocus) settingsToggle()?.focus();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (!props.hydrated || event.defaultPrevented) return;
    if (event.key === "Escape") {
      event.preventDefault();
      close();
      return;
    }
    // A sheet is modal: Tab goes round its own controls.
    if (!sheet || event.key !== "Tab" || !panel.current) return;
    const controls = focusables(panel.current);
    const first = controls[0];
    const last = controls[controls.length - 1];
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last?.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first?.focus();
    }
  };

  // Without JavaScript the panel is in the page's flow; with it, below 1024 px it is a sheet.
  const placement = props.hydrated
    ? "max-lg:fixed max-lg:inset-y-0 max-lg:right-0 max-lg:z-60 max-lg:w-full max-lg:max-w-md max-lg:overflow-y-auto max-lg:overscroll-contain max-lg:rounded-none max-lg:border-y-0 max-lg:border-r-0 max-lg:shadow-xl"
    : "";
  return (
    <>
      {sheet && (
        // A tap beside the sheet closes it (Escape and the close button do from the keyboard).
        // biome-ignore lint/a11y/noStaticElementInteractions: the backdrop is not a control of its own
        // biome-ignore lint/a11y/useKeyWithClickEvents: Escape closes the sheet
        <div data-testid="settings-backdrop" className="fixed inset-0 z-50 bg-black/40" onClick={close} />
      )}
      <aside
        ref={panel}
        id={SETTINGS_PANEL_ID}
        aria-labelledby={titleId}
        data-settings-panel=""
        data-sheet={sheet ? "" : undefined}
        onKeyDown={onKeyDown}
        className={`rounded-md border border-zinc-200 bg-white p-4 lg:sticky lg:top-32 lg:max-h-[calc(100vh-9rem)] lg:w-80 lg:shrink-0 lg:self-start lg:overflow-y-auto dark:border-zinc-800 dark:bg-zinc-950 ${placement} ${props.open ? "" : "hidden"}`}
      >
        <noscript>
          <style>{"[data-settings-panel]{display:block!important}"}</style>
        </noscript>
        {/* biome-ignore lint/a11y/useAriaPropsSupportedByRole: aria-modal is set only with the dialog role */}
        <div
          role={sheet ? "dialog" : undefined}
          aria-modal={sheet ? true : undefined}
          aria-labelledby={sheet ? titleId : undefined}
          className="space-y-5"
        >
          <SettingsFields {...props} titleId={titleId} statusId={statusId} closeButton={closeButton} onClose={close} />
        </div>
      </aside>
    </>
  );
}

function SettingsFields(
  props: SettingsPanelProps & {
    titleId: string;
    statusId: string;
    closeButton: RefObject<HTMLButtonElement | null>;
  },
) {
  const { t } = useTranslation("editor");
  const { t: w } = useTranslation("writing");
  const { values, set, err, mode, autoSlug, titleId, statusId } = props;
  return (
    <>
      <div className="flex items-center justify-between gap-2">
        <h2 id={titleId} className="font-semibold">
          {t("form.settings")}
        </h2>
        {props.hydrated && (
          <button ref={props.closeButton} type="button" className={BUTTON_SECONDARY} onClick={props.onClose}>
            {w("settings.close")}
          </button>
        )}
      </div>
      {EDITOR_LOCALES.map((locale) => (
        <LanguageSettings
          key={locale}
          locale={locale}
          values={values}
          set={set}
          err={err}
          shown={props.active === locale}
          heading={locale === "en" ? w("settings.english") : w("settings.chinese")}
        />
      ))}
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
        categories={props.categories}
        value={values.categoryId ?? ""}
        onChange={set("categoryId")}
        error={err("categoryId")}
      />
      <SeriesFields series={props.series} values={values} set={set} err={err} showAll={!props.hydrated} />
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
      <fieldset aria-describedby={props.statusError ? `${statusId}-error` : undefined}>
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
        {props.statusError && (
          <p id={`${statusId}-error`} className="mt-1 text-sm text-red-700 dark:text-red-400">
            {props.statusError}
          </p>
        )}
      </fieldset>
      <TextField
        label={t("form.publishAt")}
        name="publishAtLocal"
        type="datetime-local"
        value={values.publishAtLocal ?? ""}
        onChange={props.onPublishAt}
        error={err("publishAtLocal")}
        hint={props.zone ? t("form.publishAtHintLocal", { zone: props.zone }) : t("form.publishAtHintUtc")}
      />
      <NewsletterChoice state={props.newsletter} {...props.datedBox("newsletter")} />
      <FederateChoice {...props.datedBox("federate")} />
    </>
  );
}
