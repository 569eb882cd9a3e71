import { useId } from "react";
import { useTranslation } from "react-i18next";
import type { EditorValues } from "../../lib/editor-values.ts";
import { HTML_LANG, type Locale } from "../../lib/i18n/locale.ts";
import { NEW_SERIES, type TranslationField, translationField } from "../../lib/schemas/post.ts";
import { Field, SelectField } from "../ui/field.tsx";
import { MarkdownEditor } from "./markdown-editor.tsx";

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

/**
 * One language's version of the post in the writing column: its title and its body (the
 * summary and search-engine fields are in the settings panel, settings-panel.tsx).
 */
export function TranslationFields({
  locale,
  values,
  set,
  err,
  hidden = false,
}: {
  locale: Locale;
  values: EditorValues;
  set: (name: string) => (value: string) => void;
  err: (name: string) => string | null;
  /** The full preview stands in for the title and body (they stay in the form). */
  hidden?: boolean;
}) {
  const { t } = useTranslation("editor");
  const name = (f: TranslationField) => translationField(locale, f);
  const lang = HTML_LANG[locale];
  return (
    <div className={hidden ? "hidden" : "space-y-3"}>
      <TitleField
        label={t("form.title")}
        name={name("Title")}
        value={values[name("Title")] ?? ""}
        onChange={set(name("Title"))}
        error={err(name("Title"))}
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
    </div>
  );
}

/** The title as a writer expects it: a large, borderless line above the body, still labelled. */
function TitleField(props: {
  label: string;
  name: string;
  value: string;
  onChange(value: string): void;
  error: string | null;
  lang: string;
}) {
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className="sr-only">
        {props.label}
      </label>
      <input
        id={id}
        name={props.name}
        lang={props.lang}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
        placeholder={props.label}
        autoComplete="off"
        aria-invalid={props.error ? true : undefined}
        aria-describedby={props.error ? `${id}-error` : undefined}
        className="block w-full border-0 border-b border-transparent bg-transparent px-0 py-2 text-3xl font-bold text-zinc-900 placeholder:text-zinc-500 focus:border-blue-600 focus:outline-none focus:ring-0 aria-[invalid]:border-red-600 dark:text-zinc-100 dark:placeholder:text-zinc-400"
      />
      {props.error && (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-700 dark:text-red-400">
          {props.error}
        </p>
      )}
    </div>
  );
}
