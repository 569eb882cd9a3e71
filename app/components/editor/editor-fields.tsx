import { useTranslation } from "react-i18next";
import type { EditorValues } from "../../lib/editor-values.ts";
import { HTML_LANG, type Locale } from "../../lib/i18n/locale.ts";
import { NEW_SERIES, type TranslationField, translationField } from "../../lib/schemas/post.ts";
import { Field, SelectField } from "../ui/field.tsx";
import { MarkdownEditor } from "./markdown-editor.tsx";
import { MarkdownPreview } from "./markdown-preview.tsx";

// The post editor's controlled fields: a label, the control, its hint and error.

/** A labelled, controlled input or textarea with its hint and error tied to it. */
export function TextField({
  onChange,
  autoComplete = "off",
  ...field
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
  return <Field {...field} autoComplete={autoComplete} onValueChange={onChange} />;
}

/** The category menu ("none" first). */
export function CategorySelect({
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
  return (
    <SelectField
      label={label}
      name="categoryId"
      value={value}
      onChange={onChange}
      error={error}
      options={[{ value: "", label: none }, ...categories.map((c) => ({ value: c.id, label: c.name }))]}
    />
  );
}

/**
 * The series menu ("none" first, "new series" last), the new series' names when that is
 * chosen, and the part number when a series is. Before hydration every field shows, so the
 * form works without JavaScript.
 */
export function SeriesFields({
  series,
  values,
  set,
  err,
  showAll,
}: {
  series: Array<{ id: string; name: string }>;
  values: EditorValues;
  set: (name: string) => (value: string) => void;
  err: (name: string) => string | null;
  showAll: boolean;
}) {
  const { t } = useTranslation("editor");
  const chosen = values.seriesId ?? "";
  return (
    <div className="space-y-3">
      <SelectField
        label={t("form.series")}
        name="seriesId"
        value={chosen}
        onChange={set("seriesId")}
        error={err("seriesId")}
        options={[
          { value: "", label: t("form.noSeries") },
          ...series.map((s) => ({ value: s.id, label: s.name })),
          { value: NEW_SERIES, label: t("form.newSeries") },
        ]}
      />
      {(showAll || chosen === NEW_SERIES) && (
        <div className="grid gap-3 sm:grid-cols-2">
          <TextField
            label={t("form.seriesNameEn")}
            name="seriesNameEn"
            value={values.seriesNameEn ?? ""}
            onChange={set("seriesNameEn")}
            error={err("seriesNameEn")}
            hint={t("form.seriesNamesHint")}
          />
          <TextField
            label={t("form.seriesNameZh")}
            name="seriesNameZh"
            value={values.seriesNameZh ?? ""}
            onChange={set("seriesNameZh")}
            error={err("seriesNameZh")}
            lang="zh-CN"
          />
        </div>
      )}
      {(showAll || chosen !== "") && (
        <TextField
          label={t("form.seriesPosition")}
          name="seriesPosition"
          value={values.seriesPosition ?? ""}
          onChange={set("seriesPosition")}
          error={err("seriesPosition")}
          hint={t("form.seriesPositionHint")}
        />
      )}
    </div>
  );
}

/** One language's version of the post: title, summary, body with its preview, and SEO fields. */
export function TranslationFields({
  locale,
  values,
  set,
  err,
  previewActive,
}: {
  locale: Locale;
  values: EditorValues;
  set: (name: string) => (value: string) => void;
  err: (name: string) => string | null;
  /** The preview renders only for the tab shown, once the page runs in a browser. */
  previewActive: boolean;
}) {
  const { t } = useTranslation("editor");
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
      <MarkdownPreview markdown={values[name("Body")] ?? ""} lang={lang} active={previewActive} />
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
}
