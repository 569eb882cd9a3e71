import { useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { BUTTON_SECONDARY } from "./editor-ui.ts";

// Asks for an uploaded image's description before it goes into the text (issue 47). Its
// field has no name: it is inside the editor's form but never sent with it, and Enter
// inserts the image rather than submitting the post.

export interface UploadedImage {
  url: string;
  /** The uploaded file's name, shown to say which image this is. */
  name: string;
}

export function AltTextPrompt({ image, onInsert }: { image: UploadedImage; onInsert(alt: string): void }) {
  const { t } = useTranslation("writing");
  const id = useId();
  const [alt, setAlt] = useState("");
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    input.current?.focus();
  }, []);
  return (
    <div
      data-testid="alt-text-prompt"
      className="flex flex-wrap items-end gap-3 rounded-md border border-blue-300 bg-blue-50 p-3 text-sm text-blue-950 dark:border-blue-800 dark:bg-blue-950 dark:text-blue-100"
    >
      <img src={image.url} alt="" className="h-14 w-14 rounded object-cover" />
      <div className="min-w-0 flex-1">
        <label htmlFor={id} className="block font-medium">
          {t("image.altLabel")}
        </label>
        <input
          ref={input}
          id={id}
          value={alt}
          autoComplete="off"
          placeholder={image.name}
          aria-describedby={`${id}-hint`}
          onChange={(event) => setAlt(event.target.value)}
          onKeyDown={(event) => {
            if (event.key !== "Enter") return;
            event.preventDefault();
            onInsert(alt);
          }}
          className="mt-1 block w-full rounded-md border border-zinc-300 bg-white px-2 py-1 text-zinc-900 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100"
        />
        <p id={`${id}-hint`} className="mt-1">
          {t("image.altHint")}
        </p>
      </div>
      <button type="button" className={BUTTON_SECONDARY} onClick={() => onInsert(alt)}>
        {t("image.insert")}
      </button>
      <button type="button" className={BUTTON_SECONDARY} onClick={() => onInsert("")}>
        {t("image.skip")}
      </button>
    </div>
  );
}
