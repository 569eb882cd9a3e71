import type { Ref } from "react";
import { useTranslation } from "react-i18next";
import type { EditorValues } from "../../lib/editor-values.ts";
import { HTML_LANG, type Locale } from "../../lib/i18n/locale.ts";
import { EDITOR_LOCALES, translationField } from "../../lib/schemas/post.ts";
import type { ConflictInfo } from "./editor-state.ts";
import { BUTTON_SECONDARY, dateTimeFormatter, FORM_ID } from "./editor-ui.ts";

/**
 * Someone saved the post after this form was loaded: both sides of each language,
 * side by side where they differ, and the two ways on (save mine over theirs, or
 * load theirs and drop mine).
 */
export function ConflictView({
  conflict,
  values,
  busy,
  editHref,
  uiLocale,
  headingRef,
  onLoadTheirs,
}: {
  conflict: ConflictInfo;
  values: EditorValues;
  busy: boolean;
  editHref: string;
  uiLocale: Locale;
  headingRef: Ref<HTMLHeadingElement>;
  onLoadTheirs: () => void;
}) {
  const { t } = useTranslation("editor");
  const formatUtc = dateTimeFormatter(uiLocale, true);
  const tabLabel = (l: Locale) => (l === "en" ? t("form.tabEn") : t("form.tabZh"));
  return (
    <section
      aria-labelledby="conflict-title"
      data-testid="conflict"
      className="space-y-4 rounded-md border border-amber-400 bg-amber-50 p-4 text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-50"
    >
      <h2 id="conflict-title" ref={headingRef} tabIndex={-1} className="text-lg font-semibold">
        {t("conflict.title")}
      </h2>
      <p className="text-sm">
        {t("conflict.intro", { version: conflict.version, time: formatUtc(conflict.updatedAt) })}
      </p>
      <p className="text-sm">{t("conflict.savedStatus", { status: t(`status.${conflict.status}`) })}</p>
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
        const same = values[title] === conflict.values[title] && values[body] === conflict.values[body];
        return (
          <div key={locale} className="space-y-2">
            <h3 className="font-medium">{tabLabel(locale)}</h3>
            {same ? (
              <p className="text-sm">{t("conflict.same")}</p>
            ) : (
              <div className="grid gap-4 md:grid-cols-2">
                {side(values, t("conflict.yours"), `conflict-yours-${locale}`)}
                {side(conflict.values, t("conflict.theirs"), `conflict-theirs-${locale}`)}
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
          value={String(conflict.version)}
          disabled={busy}
          className="rounded-md bg-blue-700 px-4 py-2 text-sm font-medium text-white hover:bg-blue-800 disabled:opacity-60"
        >
          {t("conflict.overwrite")}
        </button>
        <a
          href={editHref}
          onClick={(event) => {
            event.preventDefault();
            onLoadTheirs();
          }}
          className={`${BUTTON_SECONDARY} inline-block`}
        >
          {t("conflict.discard")}
        </a>
      </div>
    </section>
  );
}
