import { useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { imageFiles, imageMarkdown } from "../../lib/media.ts";
import { IMAGE_ACCEPT, useUpload } from "../media/use-upload.ts";
import type { MountedEditor } from "./codemirror.client.ts";

const TEXTAREA =
  "block min-h-[20rem] w-full rounded-md border border-zinc-300 bg-white px-3 py-2 font-mono text-sm text-zinc-900 shadow-sm focus:border-blue-600 focus:outline-none focus:ring-2 focus:ring-blue-600/40 aria-[invalid]:border-red-600 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100";
const HOST =
  "rounded-md border border-zinc-300 bg-white px-3 text-zinc-900 shadow-sm focus-within:border-blue-600 focus-within:ring-2 focus-within:ring-blue-600/40 data-[invalid]:border-red-600 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100";

/**
 * The Markdown body: a plain textarea, server-rendered and always the form field,
 * which CodeMirror enhances once it has loaded in the browser (its text is kept in
 * the textarea). Without JavaScript, or if CodeMirror fails to load, the textarea
 * is the editor.
 */
export function MarkdownEditor({
  name,
  label,
  value,
  onChange,
  error,
  hint,
  lang,
  images = false,
}: {
  name: string;
  label: string;
  value: string;
  onChange(value: string): void;
  error?: string | null;
  hint?: string;
  lang: string;
  /** Offer image uploads: a button, and paste or drop of image files. */
  images?: boolean;
}) {
  const id = useId();
  const labelId = `${id}-label`;
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const describedBy = [error ? errorId : null, hint ? hintId : null].filter(Boolean).join(" ");
  const textarea = useRef<HTMLTextAreaElement>(null);
  const host = useRef<HTMLDivElement>(null);
  const editor = useRef<MountedEditor | null>(null);
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;
  const [enhanced, setEnhanced] = useState(false);
  const { t } = useTranslation("media");
  const { state: uploadState, upload } = useUpload();
  const fileInput = useRef<HTMLInputElement>(null);

  /** Puts text at the cursor, in CodeMirror or in the plain textarea. */
  const insertText = (text: string) => {
    if (editor.current) {
      editor.current.insert(text);
      return;
    }
    const area = textarea.current;
    if (!area) return;
    const start = area.selectionStart ?? area.value.length;
    const end = area.selectionEnd ?? start;
    onChangeRef.current(area.value.slice(0, start) + text + area.value.slice(end));
  };
  const uploadFiles = async (files: File[]) => {
    for (const file of files) {
      const media = await upload(file);
      if (media) insertText(`${imageMarkdown(media.originalName, media.url)}\n`);
    }
  };
  const uploadFilesRef = useRef(uploadFiles);
  uploadFilesRef.current = uploadFiles;
  const imagesRef = useRef(images);
  imagesRef.current = images;

  const attributes = (): Record<string, string> => {
    const attrs: Record<string, string> = { "aria-labelledby": labelId, lang, spellcheck: "true" };
    if (describedBy) attrs["aria-describedby"] = describedBy;
    if (error) attrs["aria-invalid"] = "true";
    return attrs;
  };
  const attributesRef = useRef(attributes);
  attributesRef.current = attributes;

  useEffect(() => {
    let cancelled = false;
    let mounted: MountedEditor | null = null;
    import("./codemirror.client.ts")
      .then(({ mountMarkdownEditor }) => {
        if (cancelled || !host.current) return;
        mounted = mountMarkdownEditor(host.current, {
          value: textarea.current?.value ?? "",
          onChange: (v) => onChangeRef.current(v),
          attributes: attributesRef.current(),
          onImageFiles: (files) => {
            if (imagesRef.current) void uploadFilesRef.current(files);
          },
        });
        editor.current = mounted;
        setEnhanced(true);
      })
      .catch(() => {
        // The textarea stays the editor.
      });
    return () => {
      cancelled = true;
      mounted?.destroy();
      editor.current = null;
    };
  }, []);

  useEffect(() => {
    editor.current?.setValue(value);
  }, [value]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the attributes follow exactly these inputs
  useEffect(() => {
    editor.current?.setAttributes(attributesRef.current());
  }, [error, describedBy, lang, enhanced]);

  return (
    <div className="space-y-1">
      <label id={labelId} htmlFor={id} className="block text-sm font-medium">
        {label}
      </label>
      {hint && (
        <p id={hintId} className="text-sm text-zinc-600 dark:text-zinc-400">
          {hint}
        </p>
      )}
      {images && (
        <div className="flex flex-wrap items-center gap-3">
          <input
            ref={fileInput}
            type="file"
            accept={IMAGE_ACCEPT}
            multiple
            className="sr-only"
            tabIndex={-1}
            aria-hidden="true"
            data-testid={`insert-image-${name}`}
            onChange={(event) => {
              const files = [...(event.currentTarget.files ?? [])];
              event.currentTarget.value = "";
              void uploadFiles(files);
            }}
          />
          <button
            type="button"
            className="rounded-md border border-zinc-300 px-3 py-1 text-sm hover:bg-zinc-100 disabled:opacity-60 dark:border-zinc-700 dark:hover:bg-zinc-800"
            disabled={uploadState.status === "uploading"}
            onClick={() => fileInput.current?.click()}
          >
            {t("upload.insertImage")}
          </button>
          <p
            aria-live="polite"
            className={`text-sm ${uploadState.status === "error" ? "text-red-700 dark:text-red-400" : "text-zinc-600 dark:text-zinc-400"}`}
          >
            {uploadState.status === "uploading" && t("upload.uploading", { name: uploadState.name })}
            {uploadState.status === "done" &&
              t("upload.done", {
                name: uploadState.media.originalName,
                width: uploadState.media.width,
                height: uploadState.media.height,
              })}
            {uploadState.status === "error" && uploadState.message}
            {uploadState.status === "idle" && t("upload.insertHint")}
          </p>
        </div>
      )}
      <textarea
        ref={textarea}
        onPaste={(event) => {
          const files = imageFiles(event.clipboardData?.files);
          if (!images || files.length === 0) return;
          event.preventDefault();
          void uploadFiles(files);
        }}
        onDrop={(event) => {
          const files = imageFiles(event.dataTransfer?.files);
          if (!images || files.length === 0) return;
          event.preventDefault();
          void uploadFiles(files);
        }}
        id={id}
        name={name}
        lang={lang}
        rows={14}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        hidden={enhanced}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy || undefined}
        className={TEXTAREA}
      />
      <div
        ref={host}
        data-editor-for={name}
        data-invalid={error ? "" : undefined}
        hidden={!enhanced}
        className={HOST}
      />
      {error && (
        <p id={errorId} className="text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      )}
    </div>
  );
}

/** Focuses a form field by name: the CodeMirror area when it stands in for a hidden textarea. */
export function focusField(form: HTMLFormElement, name: string): void {
  const field = form.elements.namedItem(name);
  const element =
    field instanceof RadioNodeList ? (field[0] as HTMLElement | undefined) : (field as HTMLElement | null);
  if (element instanceof HTMLTextAreaElement && element.hidden) {
    form.querySelector<HTMLElement>(`[data-editor-for="${name}"] .cm-content`)?.focus();
    return;
  }
  element?.focus();
}
