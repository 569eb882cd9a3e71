// The admin's one file picker: a labelled drop zone in the page's language ("Choose a file
// or drag it here" / "选择文件，或拖到这里") instead of the browser's "Choose File / No file
// chosen", which speaks the browser's language, not the page's. It is the real
// `<input type="file">` all along: with script (`js` on <html>, set before first paint) the
// input lies transparent over the zone, so a click and the keyboard (focus, then Space or
// Enter) reach it, and a file dropped on the zone becomes its file; without script the zone
// is not drawn and the plain input shows. The form posts as before; tests fill it with
// `getByLabel(label)`.
import { type ChangeEvent, type DragEvent, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { formatBytes } from "../../lib/media.ts";

/** Whether `file` is one of the kinds an `accept` attribute lists (".csv", "text/csv", "image/*"). */
export function acceptsFile(accept: string | undefined, file: { name: string; type: string }): boolean {
  const kinds = (accept ?? "")
    .split(",")
    .map((k) => k.trim().toLowerCase())
    .filter(Boolean);
  if (kinds.length === 0) return true;
  const name = file.name.toLowerCase();
  const type = file.type.toLowerCase();
  return kinds.some((kind) => {
    if (kind.startsWith(".")) return name.endsWith(kind);
    if (kind.endsWith("/*")) return type.startsWith(kind.slice(0, -1));
    return type === kind;
  });
}

/** The kinds an `accept` attribute lists, as the hint names them: ".csv, .zip". */
function acceptedExtensions(accept: string | undefined): string {
  return (accept ?? "")
    .split(",")
    .map((k) => k.trim())
    .filter((k) => k.startsWith("."))
    .join(", ");
}

export function FilePicker({
  id,
  name = "file",
  label,
  hint,
  accept,
  required = false,
  maxBytes,
  tooLarge,
  wrongKind,
  testId,
}: {
  id: string;
  name?: string;
  /** The field's name, above the zone; the input's accessible name. */
  label: string;
  /** What the field takes (kinds, size), under the zone; tied with `aria-describedby`. */
  hint?: string;
  accept?: string;
  required?: boolean;
  /** A file larger than this is refused before it is sent, with `tooLarge` as the reason. */
  maxBytes?: number;
  tooLarge?: string;
  /** Why a file of another kind is refused; the picker says which kinds it takes unless given. */
  wrongKind?: string;
  testId?: string;
}) {
  const { t } = useTranslation("adminTools");
  const [chosen, setChosen] = useState<{ name: string; size: number } | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const hintId = `${id}-hint`;
  const problemId = `${id}-problem`;

  const onChange = (event: ChangeEvent<HTMLInputElement>) => {
    const field = event.currentTarget;
    const file = field.files?.[0];
    setDragging(false);
    setChosen(file ? { name: file.name, size: file.size } : null);
    // A dropped file skips the dialog's own filter, and a file over the limit would be cut
    // off by the server: say so before the form is sent (the browser refuses to submit).
    let why = "";
    if (file && !acceptsFile(accept, file)) {
      why = wrongKind ?? t("filePicker.wrongKind", { name: file.name, kinds: acceptedExtensions(accept) || accept });
    } else if (file && maxBytes !== undefined && file.size > maxBytes) {
      why = tooLarge ?? t("filePicker.tooLarge", { size: formatBytes(maxBytes) });
    }
    field.setCustomValidity(why);
    setProblem(why || null);
  };

  // A file dropped anywhere on the zone becomes the input's file, as if chosen in the dialog;
  // the change event then checks it like any other.
  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    setDragging(false);
    const file = event.dataTransfer.files[0];
    const target = input.current;
    if (!file || !target) return;
    event.preventDefault();
    const one = new DataTransfer();
    one.items.add(file);
    target.files = one.files;
    target.dispatchEvent(new Event("change", { bubbles: true }));
    target.focus();
  };

  return (
    <div className="min-w-0 space-y-1" data-testid={testId}>
      <label htmlFor={id} className="block text-sm font-medium">
        {label}
      </label>
      {/* A drop target for the pointer only: the keyboard reaches the input inside it. */}
      {/* biome-ignore lint/a11y/noStaticElementInteractions: drag and drop has no keyboard form; the input is the control */}
      <div
        className="relative"
        data-file-picker
        onDragEnter={() => setDragging(true)}
        onDragOver={(event) => event.preventDefault()}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
      >
        <input
          ref={input}
          id={id}
          name={name}
          type="file"
          accept={accept}
          required={required}
          aria-describedby={[problem ? problemId : null, hint ? hintId : null].filter(Boolean).join(" ") || undefined}
          aria-invalid={problem ? true : undefined}
          onChange={onChange}
          className="peer block max-w-full text-sm [.js_&]:absolute [.js_&]:inset-0 [.js_&]:z-10 [.js_&]:h-full [.js_&]:w-full [.js_&]:cursor-pointer [.js_&]:opacity-0"
        />
        {/* What the eye sees; the input above it is what is clicked, focused and read out. */}
        <div
          aria-hidden="true"
          data-dragging={dragging || undefined}
          className={`hidden min-h-16 items-center gap-3 rounded-lg border-2 border-dashed px-3 py-3 text-sm peer-hover:bg-zinc-50 peer-focus-visible:ring-2 peer-focus-visible:ring-blue-600 peer-focus-visible:ring-offset-2 dark:peer-hover:bg-zinc-900 [.js_&]:flex ${
            dragging
              ? "border-blue-600 bg-blue-50 dark:border-blue-400 dark:bg-blue-950"
              : problem
                ? "border-red-600 dark:border-red-400"
                : "border-zinc-300 dark:border-zinc-700"
          }`}
        >
          <span className="inline-flex h-9 shrink-0 items-center whitespace-nowrap rounded-md border border-zinc-300 bg-white px-3 font-medium dark:border-zinc-700 dark:bg-zinc-900">
            {t("filePicker.choose")}
          </span>
          <span className="min-w-0 break-words text-zinc-700 dark:text-zinc-300" data-testid={`${id}-chosen`}>
            {dragging
              ? t("filePicker.dropHere")
              : chosen
                ? t("filePicker.chosen", { name: chosen.name, size: formatBytes(chosen.size) })
                : t("filePicker.none")}
          </span>
        </div>
      </div>
      {problem && (
        <p id={problemId} className="text-sm text-red-700 dark:text-red-400">
          {problem}
        </p>
      )}
      {hint && (
        <p id={hintId} className="text-sm text-zinc-600 dark:text-zinc-400">
          {hint}
        </p>
      )}
    </div>
  );
}
