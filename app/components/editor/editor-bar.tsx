import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { Locale } from "../../lib/i18n/locale.ts";
import type { EditorStatus } from "../../lib/schemas/post.ts";
import { countText, lengthOf, readingMinutesOf } from "../../lib/writing/word-count.ts";
import { SETTINGS_PANEL_ID } from "./settings-panel.tsx";

// The writing screen's bar (issue 47), sticky under the admin's own bar: the post's status,
// whether it is saved, how long the version being edited is, the view toggles and the
// primary action. The toggles need JavaScript and are shown once the page runs.

export type SaveState = { kind: "saving" } | { kind: "unsaved" } | { kind: "saved"; time: string } | { kind: "new" };

export interface ViewState {
  settings: boolean;
  split: boolean;
  preview: boolean;
  focus: boolean;
}

const TOGGLE =
  "rounded-md border border-zinc-300 px-2.5 py-1.5 text-sm hover:bg-zinc-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-600 aria-pressed:border-blue-700 aria-pressed:bg-blue-50 aria-pressed:text-blue-900 aria-expanded:border-blue-700 aria-expanded:bg-blue-50 aria-expanded:text-blue-900 dark:border-zinc-700 dark:hover:bg-zinc-800 dark:aria-pressed:bg-blue-950 dark:aria-pressed:text-blue-100 dark:aria-expanded:bg-blue-950 dark:aria-expanded:text-blue-100";

/** "1,234 words · 6 min read" for English, "1,234 字 · 约 3 分钟读完" for Chinese. */
export function WordCount({ body, locale }: { body: string; locale: Locale }) {
  const { t, i18n } = useTranslation("writing");
  const count = countText(body);
  const n = lengthOf(count);
  const formatted = new Intl.NumberFormat(i18n.language).format(n);
  const minutes = readingMinutesOf(count);
  return (
    <p className="text-sm text-zinc-700 tabular-nums dark:text-zinc-300" data-testid="word-count" aria-live="off">
      <span data-testid="word-count-value">
        {locale === "zh" ? t("bar.chars", { count: n, n: formatted }) : t("bar.words", { count: n, n: formatted })}
      </span>
      {minutes > 0 && <> · {t("bar.minutes", { count: minutes })}</>}
    </p>
  );
}

export function EditorBar(props: {
  status: EditorStatus | null;
  pending: boolean;
  save: SaveState;
  /** The "kept in this browser" line, when the browser holds unsaved changes. */
  kept: string | null;
  body: string;
  locale: Locale;
  hydrated: boolean;
  view: ViewState;
  onView(change: Partial<ViewState>): void;
  /** The primary action's buttons (and the publish dialog). */
  children: ReactNode;
}) {
  const { t } = useTranslation("writing");
  const { t: te } = useTranslation("editor");
  const { view, onView } = props;
  return (
    <div
      data-editor-bar=""
      className={`sticky ${view.focus ? "top-0" : "top-14"} z-30 -mx-4 flex flex-wrap items-center gap-x-4 gap-y-2 border-b border-zinc-200 bg-white/95 px-4 py-2 backdrop-blur lg:-mx-8 lg:px-8 dark:border-zinc-800 dark:bg-zinc-950/95`}
    >
      {!view.focus && (
        <div className="flex min-w-0 flex-wrap items-center gap-x-3 gap-y-1 text-sm">
          {props.status && (
            <span
              data-testid="post-status"
              className="rounded-full bg-zinc-100 px-2 py-0.5 font-medium text-zinc-800 dark:bg-zinc-800 dark:text-zinc-100"
            >
              {te(`status.${props.status}`)}
              {props.pending && <> · {t("bar.pending")}</>}
            </span>
          )}
          <span role="status" data-testid="save-state" className="text-zinc-700 dark:text-zinc-300">
            {props.save.kind === "saving"
              ? t("bar.saving")
              : props.save.kind === "unsaved"
                ? t("bar.unsaved")
                : props.save.kind === "saved"
                  ? t("bar.saved", { time: props.save.time })
                  : t("bar.notSaved")}
          </span>
          <span className="text-xs text-zinc-600 dark:text-zinc-400" data-testid="kept-locally">
            {props.kept}
          </span>
          <WordCount body={props.body} locale={props.locale} />
        </div>
      )}
      <div className="ml-auto flex flex-wrap items-center gap-2">
        {props.hydrated && !view.focus && (
          <>
            <button
              type="button"
              aria-pressed={view.split}
              className={`hidden lg:inline-block ${TOGGLE}`}
              onClick={() => onView({ split: !view.split, preview: false })}
            >
              {t("bar.sideBySide")}
            </button>
            <button
              type="button"
              aria-pressed={view.preview}
              className={TOGGLE}
              onClick={() => onView({ preview: !view.preview })}
            >
              {t("bar.preview")}
            </button>
            <button type="button" aria-pressed={false} className={TOGGLE} onClick={() => onView({ focus: true })}>
              {t("bar.focus")}
            </button>
            <button
              type="button"
              aria-expanded={view.settings}
              aria-controls={SETTINGS_PANEL_ID}
              className={TOGGLE}
              onClick={() => onView({ settings: !view.settings })}
            >
              {t("bar.settings")}
            </button>
          </>
        )}
        {view.focus && (
          <button type="button" className={TOGGLE} onClick={() => onView({ focus: false })}>
            {t("bar.exitFocus")}
          </button>
        )}
        <div className={view.focus ? "hidden" : "flex flex-wrap items-center gap-2"}>{props.children}</div>
      </div>
    </div>
  );
}
