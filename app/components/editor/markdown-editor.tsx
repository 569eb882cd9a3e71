import { useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { imageFiles, imageMarkdown } from "../../lib/media.ts";
import { placeBlock, type TextEdit } from "../../lib/writing/markdown-edits.ts";
import { IMAGE_ACCEPT, useUpload } from "../media/use-upload.ts";
import { AltTextPrompt, type UploadedImage } from "./alt-text-prompt.tsx";
import type { MountedEditor } from "./codemirror.client.ts";
import { FORMAT_ACTIONS, type FormatId } from "./format-actions.ts";
import { FormatToolbar } from "./format-toolbar.tsx";

const TEXTAREA =
  "block min-h-[var(--editor-min-height,20rem)] w-full rounded-md border border-zinc-300 bg-white px-3 py-2 font-mono text-sm text-zinc-900 shadow-sm focus:border-blue-600 focus:outline-none focus:ring-2 focus:ring-blue-600/40 aria-[invalid]:border-red-600 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100";
const HOST =
  "rounded-md border border-zinc-300 bg-white px-3 text-zinc-900 shadow-sm focus-within:border-blue-600 focus-within:ring-2 focus-within:ring-blue-600/40 data-[invalid]:border-red-600 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100";

/**
 * The Markdown body: a plain textarea, server-rendered and always the form field,
 * which CodeMirror enhances once it has loaded in the browser (its text is kept in
 * the textarea), with the formatting toolbar over it. Without JavaScript, or if
 * CodeMirror fails to load, the textarea is the editor.
 *
 * Images (the toolbar's button, paste or drop) are uploaded, then the author is asked for
 * their description, then each goes in as a paragraph of its own (placeBlock).
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
  const [failed, setFailed] = useState(false);
  const { t } = useTranslation("media");
  const { state: uploadState, upload } = useUpload();
  const fileInput = useRef<HTMLInputElement>(null);
  /** Uploaded images waiting for their description, first asked first. */
  const [waiting, setWaiting] = useState<UploadedImage[]>([]);

  /** The text and the selection, of CodeMirror or of the plain textarea. */
  const read = () => {
    if (editor.current) return editor.current.read();
    const area = textarea.current;
    const doc = area?.value ?? "";
    const from = area?.selectionStart ?? doc.length;
    const to = area?.selectionEnd ?? from;
    return { doc, from, to, head: to };
  };
  /** Applies an edit in CodeMirror, or in the plain textarea. */
  const apply = (edit: TextEdit) => {
    if (editor.current) {
      editor.current.apply(edit);
      editor.current.focus();
      return;
    }
    const area = textarea.current;
    if (!area) return;
    onChangeRef.current(area.value.slice(0, edit.from) + edit.insert + area.value.slice(edit.to));
    requestAnimationFrame(() => {
      area.focus();
      area.setSelectionRange(Math.min(edit.anchor, edit.head), Math.max(edit.anchor, edit.head));
    });
  };
  const insertImage = (image: UploadedImage, alt: string) => {
    const { doc, head } = read();
    apply(placeBlock(doc, head, imageMarkdown(alt, image.url)));
    setWaiting((list) => list.slice(1));
  };
  const format = (chosen: FormatId) => {
    if (chosen === "image") {
      fileInput.current?.click();
      return;
    }
    const edit = FORMAT_ACTIONS.find((action) => action.id === chosen)?.edit;
    if (!edit) return;
    const { doc, from, to } = read();
    apply(edit(doc, from, to));
  };
  const uploadFiles = async (files: File[]) => {
    for (const file of files) {
      const media = await upload(file);
      if (media) setWaiting((list) => [...list, { url: media.url, name: media.originalName }]);
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
        setFailed(true);
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

  const hostId = `${id}-host`;
  const image = waiting[0];
  return (
    <div className="space-y-1">
      <label id={labelId} htmlFor={id} className="sr-only">
        {label}
      </label>
      {hint && (
        <p id={hintId} className="sr-only">
          {hint}
        </p>
      )}
      {enhanced && <FormatToolbar controls={hostId} onAction={format} imageBusy={uploadState.status === "uploading"} />}
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
          {failed && (
            <button
              type="button"
              className="rounded-md border border-zinc-300 px-3 py-1 text-sm hover:bg-zinc-100 disabled:opacity-60 dark:border-zinc-700 dark:hover:bg-zinc-800"
              disabled={uploadState.status === "uploading"}
              onClick={() => fileInput.current?.click()}
            >
              {t("upload.insertImage")}
            </button>
          )}
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
          </p>
        </div>
      )}
      {image && <AltTextPrompt key={image.url} image={image} onInsert={(alt) => insertImage(image, alt)} />}
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
        id={hostId}
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
