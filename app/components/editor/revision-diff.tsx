import { useId } from "react";
import { useTranslation } from "react-i18next";
import { HTML_LANG, type Locale } from "../../lib/i18n/locale.ts";
import type { DiffPart } from "../../lib/text-diff.ts";

// The revision history's compare view: an inline diff where removed text is struck
// through and added text underlined, each also announced in words (never colour alone).

export interface FieldDiffView {
  field: "title" | "summary" | "body";
  parts: DiffPart[];
  changed: boolean;
}

export interface LanguageDiffView {
  locale: Locale;
  inA: boolean;
  inB: boolean;
  fields: FieldDiffView[];
}

export interface SettingChangeView {
  setting: "slug" | "status" | "category" | "series" | "tags" | "cover" | "coverAlt";
  before: string;
  after: string;
}

const FIELD_LABEL = {
  title: "history.fieldTitle",
  summary: "history.fieldSummary",
  body: "history.fieldBody",
} as const;
const SETTING_LABEL = {
  slug: "history.settingSlug",
  status: "history.settingStatus",
  category: "history.settingCategory",
  series: "history.settingSeries",
  tags: "history.settingTags",
  cover: "history.settingCover",
  coverAlt: "history.settingCoverAlt",
} as const;

export function DiffParts({ parts }: { parts: readonly DiffPart[] }) {
  const { t } = useTranslation("editor");
  return (
    <>
      {parts.map((part, i) => {
        const key = `${i}-${part.op}`;
        if (part.op === "equal") return <span key={key}>{part.text}</span>;
        if (part.op === "delete")
          return (
            <del
              key={key}
              className="bg-red-100 text-red-950 line-through decoration-2 dark:bg-red-950 dark:text-red-100"
            >
              <span className="sr-only">{t("history.removedStart")}</span>
              {part.text}
              <span className="sr-only">{t("history.removedEnd")}</span>
            </del>
          );
        return (
          <ins
            key={key}
            className="bg-green-100 text-green-950 underline decoration-2 dark:bg-green-950 dark:text-green-100"
          >
            <span className="sr-only">{t("history.addedStart")}</span>
            {part.text}
            <span className="sr-only">{t("history.addedEnd")}</span>
          </ins>
        );
      })}
    </>
  );
}

function LanguageSection({ diff }: { diff: LanguageDiffView }) {
  const { t } = useTranslation("editor");
  const id = useId();
  if (!diff.inA && !diff.inB) return null;
  return (
    <section aria-labelledby={id} className="space-y-4">
      <h2 id={id} className="text-xl font-semibold">
        {diff.locale === "en" ? t("history.languageEn") : t("history.languageZh")}
      </h2>
      {(!diff.inA || !diff.inB) && <p className="text-sm text-zinc-600 dark:text-zinc-400">{t("history.noVersion")}</p>}
      {diff.fields.map((field) => (
        <div key={field.field}>
          <h3 className="font-medium">{t(FIELD_LABEL[field.field])}</h3>
          {field.changed ? (
            <div
              lang={HTML_LANG[diff.locale]}
              className="mt-1 whitespace-pre-wrap break-words rounded-md border border-zinc-200 p-3 font-mono text-sm dark:border-zinc-800"
              data-testid={`diff-${diff.locale}-${field.field}`}
            >
              <DiffParts parts={field.parts} />
            </div>
          ) : (
            <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">{t("history.noChanges")}</p>
          )}
        </div>
      ))}
    </section>
  );
}

export function RevisionDiff(props: { languages: LanguageDiffView[]; settings: SettingChangeView[] }) {
  const { t } = useTranslation("editor");
  const settingsId = useId();
  const shown = (setting: SettingChangeView["setting"], value: string) => {
    if (!value) return t("history.noneValue");
    if (setting === "status" && (value === "draft" || value === "published" || value === "scheduled"))
      return t(`status.${value}`);
    return value;
  };
  return (
    <div className="space-y-8">
      <p className="text-sm text-zinc-700 dark:text-zinc-300">{t("history.legend")}</p>
      {props.languages.map((diff) => (
        <LanguageSection key={diff.locale} diff={diff} />
      ))}
      <section aria-labelledby={settingsId} className="space-y-2">
        <h2 id={settingsId} className="text-xl font-semibold">
          {t("history.settings")}
        </h2>
        {props.settings.length === 0 ? (
          <p className="text-sm text-zinc-600 dark:text-zinc-400">{t("history.settingUnchanged")}</p>
        ) : (
          <table className="w-full text-left text-sm">
            <thead>
              <tr className="border-b border-zinc-200 dark:border-zinc-800">
                <th scope="col" className="py-2 pr-3">
                  {t("history.settings")}
                </th>
                <th scope="col" className="py-2 pr-3">
                  {t("history.before")}
                </th>
                <th scope="col" className="py-2 pr-3">
                  {t("history.after")}
                </th>
              </tr>
            </thead>
            <tbody>
              {props.settings.map((change) => (
                <tr key={change.setting} className="border-b border-zinc-100 dark:border-zinc-900">
                  <th scope="row" className="py-2 pr-3 font-medium">
                    {t(SETTING_LABEL[change.setting])}
                  </th>
                  <td className="break-all py-2 pr-3">{shown(change.setting, change.before)}</td>
                  <td className="break-all py-2 pr-3">{shown(change.setting, change.after)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </div>
  );
}
