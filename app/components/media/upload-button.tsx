import { useId, useRef } from "react";
import { useTranslation } from "react-i18next";
import { IMAGE_ACCEPT, type UploadedMedia, useUpload } from "./use-upload.ts";

/** Sets a form control's value the way typing would, so React and form listeners see it. */
export function setFieldValue(input: HTMLInputElement | HTMLTextAreaElement, value: string): void {
  const proto = input instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
  Object.getOwnPropertyDescriptor(proto, "value")?.set?.call(input, value);
  input.dispatchEvent(new Event("input", { bubbles: true }));
  input.dispatchEvent(new Event("change", { bubbles: true }));
}

/**
 * "Upload an image" next to an image address field: the uploaded file's address
 * goes into the field named `target` of the same form. Without JavaScript the
 * field still takes a typed address.
 */
export function UploadButton({
  target,
  fieldLabel,
  onUploaded,
}: {
  /** The form field that receives the address (optional when `onUploaded` handles it). */
  target?: string;
  fieldLabel: string;
  onUploaded?: (media: UploadedMedia) => void;
}) {
  const { t } = useTranslation("media");
  const { state, upload, sizeLabel } = useUpload();
  const fileRef = useRef<HTMLInputElement>(null);
  const statusId = useId();

  const onFile = async (event: React.ChangeEvent<HTMLInputElement>) => {
    const input = event.currentTarget;
    const file = input.files?.[0];
    const form = input.form;
    input.value = "";
    if (!file) return;
    const media = await upload(file);
    if (!media) return;
    const field = target ? form?.elements.namedItem(target) : null;
    if (field instanceof HTMLInputElement || field instanceof HTMLTextAreaElement) setFieldValue(field, media.url);
    onUploaded?.(media);
  };

  return (
    <div className="flex flex-wrap items-center gap-3">
      <input
        ref={fileRef}
        type="file"
        accept={IMAGE_ACCEPT}
        className="sr-only"
        tabIndex={-1}
        aria-hidden="true"
        onChange={onFile}
        data-testid={`upload-${target ?? "image"}`}
      />
      <button
        type="button"
        className="rounded-md border border-zinc-300 px-3 py-1.5 text-sm font-medium hover:bg-zinc-100 disabled:opacity-60 dark:border-zinc-700 dark:hover:bg-zinc-800"
        title={t("upload.buttonFor", { field: fieldLabel })}
        aria-describedby={statusId}
        disabled={state.status === "uploading"}
        onClick={() => fileRef.current?.click()}
      >
        {t("upload.button")}
      </button>
      <p
        id={statusId}
        aria-live="polite"
        className={`text-sm ${state.status === "error" ? "text-red-700 dark:text-red-400" : "text-zinc-600 dark:text-zinc-400"}`}
      >
        {state.status === "uploading" && t("upload.uploading", { name: state.name })}
        {state.status === "done" &&
          t("upload.done", { name: state.media.originalName, width: state.media.width, height: state.media.height })}
        {state.status === "error" && state.message}
        {state.status === "idle" && t("upload.hint", { size: sizeLabel })}
      </p>
    </div>
  );
}
