import { useId } from "react";
import { useTranslation } from "react-i18next";
import { Form } from "react-router";
import { HTML_LANG, type Locale } from "../../lib/i18n/locale.ts";
import type { ParagraphDiff } from "../../lib/translation-diff.ts";
import { BUTTON_SECONDARY, dateTimeFormatter } from "./editor-ui.ts";
import { DiffParts } from "./revision-diff.tsx";

// Translations that know when they are out of date (issue 47, docs/decisions/034-translation-sync.md):
// the mark on a language tab, and the box that says since when a version is out of date, shows
// what changed in the other language since (by paragraph, with the history's diff), and offers
// "Mark as up to date" (its own small form, outside the editor's, so it works without JavaScript).

/** A language version out of date, as the editor's loader gives it (posts/translation-sync.server.ts). */
export interface OutdatedView {
  locale: Locale;
  source: Locale;
  since: string;
  title: ParagraphDiff;
  summary: ParagraphDiff;
  body: ParagraphDiff;
}

/** The "Out of date" mark beside a language's name (on its tab). */
export function OutdatedMark({ locale }: { locale: Locale }) {
  const { t } = useTranslation("translations");
  return (
    <span
      className="ms-2 rounded-full bg-amber-100 px-2 py-0.5 text-xs font-medium text-amber-900 dark:bg-amber-950 dark:text-amber-100"
      data-testid={`outdated-mark-${locale}`}
    >
      {t("mark.outdated")}
    </span>
  );
}

function FieldChanges({ label, diff, locale }: { label: string; diff: ParagraphDiff; locale: Locale }) {
  const { t } = useTranslation("translations");
  return (
    <div>
      <h3 className="font-medium">{label}</h3>
      {!diff.changed ? (
        <p className="mt-1 text-zinc-600 dark:text-zinc-400">{t("status.noChange")}</p>
      ) : (
        <div className="mt-1 space-y-2">
          {diff.blocks.map((block, i) =>
            block.kind === "same" ? (
              // biome-ignore lint/suspicious/noArrayIndexKey: the blocks are a fixed list from the server
              <p key={i} className="text-xs text-zinc-600 italic dark:text-zinc-400">
                {t("status.sameParagraphs", { count: block.count })}
              </p>
            ) : (
              <div
                // biome-ignore lint/suspicious/noArrayIndexKey: the blocks are a fixed list from the server
                key={i}
                lang={HTML_LANG[locale]}
                className="whitespace-pre-wrap break-words rounded-md border border-zinc-200 bg-white p-2 font-mono text-sm dark:border-zinc-800 dark:bg-zinc-950"
              >
                <DiffParts parts={block.parts} />
              </div>
            ),
          )}
        </div>
      )}
    </div>
  );
}

function OutdatedBox({ view, uiLocale }: { view: OutdatedView; uiLocale: Locale }) {
  const { t } = useTranslation("translations");
  const id = useId();
  const language = t(`languages.${view.locale}`);
  const source = t(`languages.${view.source}`);
  const format = dateTimeFormatter(uiLocale, true);
  return (
    <section
      aria-labelledby={id}
      data-testid={`outdated-${view.locale}`}
      className="space-y-3 rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-950 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-50"
    >
      <h2 id={id} className="font-semibold">
        {t("status.title", { language })}
      </h2>
      <p>{t("status.since", { source, language, time: format(view.since) })}</p>
      <details className="rounded-md border border-amber-200 bg-amber-50/50 dark:border-amber-900">
        <summary className="cursor-pointer px-3 py-2 font-medium focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-600">
          {t("status.whatChanged", { source })}
        </summary>
        <div
          className="space-y-3 px-3 pb-3 text-zinc-900 dark:text-zinc-100"
          data-testid={`outdated-diff-${view.locale}`}
        >
          <FieldChanges label={t("status.fieldTitle")} diff={view.title} locale={view.source} />
          <FieldChanges label={t("status.fieldSummary")} diff={view.summary} locale={view.source} />
          <FieldChanges label={t("status.fieldBody")} diff={view.body} locale={view.source} />
        </div>
      </details>
      <Form method="post" className="flex flex-wrap items-center gap-3">
        <input type="hidden" name="intent" value="markInLine" />
        <input type="hidden" name="locale" value={view.locale} />
        <button type="submit" className={`${BUTTON_SECONDARY} bg-white dark:bg-zinc-900`}>
          {t("status.markInLine", { language })}
        </button>
        <span>{t("status.markHint", { language })}</span>
      </Form>
    </section>
  );
}

/** Every language version of the post that is out of date (at most one, by the rules), above the editor's form. */
export function TranslationStatus({ outdated, uiLocale }: { outdated: readonly OutdatedView[]; uiLocale: Locale }) {
  if (outdated.length === 0) return null;
  return (
    <>
      {outdated.map((view) => (
        <OutdatedBox key={view.locale} view={view} uiLocale={uiLocale} />
      ))}
    </>
  );
}
