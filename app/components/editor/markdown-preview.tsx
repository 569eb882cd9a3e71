import { type Ref, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { SanitizedHtml } from "../ui/sanitized-html.tsx";

export const PREVIEW_URL = "/api/posts/preview";
export const PREVIEW_DEBOUNCE_MS = 400;

type PreviewState =
  | { state: "empty" }
  | { state: "loading"; html: string | null; minutes: number | null }
  | { state: "ready"; html: string; minutes: number }
  | { state: "error" };

/**
 * The body as it will look, rendered by the server's own pipeline
 * (`POST /api/posts/preview`), ~400 ms after the last keystroke. The answer is the
 * server's sanitized HTML, shown through SanitizedHtml.
 */
export function MarkdownPreview({
  markdown,
  lang,
  active,
  title,
  scrollRef,
  boxClassName = "",
}: {
  markdown: string;
  lang: string;
  active: boolean;
  /** The post's title, shown above the body in the full preview. */
  title?: string;
  /** The box that scrolls (beside the text: it follows the text's scrolling). */
  scrollRef?: Ref<HTMLDivElement>;
  boxClassName?: string;
}) {
  const { t } = useTranslation("editor");
  const [preview, setPreview] = useState<PreviewState>({ state: "empty" });

  useEffect(() => {
    if (!active) return;
    if (markdown.trim() === "") {
      setPreview({ state: "empty" });
      return;
    }
    const controller = new AbortController();
    setPreview((p) =>
      p.state === "ready" || p.state === "loading"
        ? { state: "loading", html: p.html, minutes: p.minutes }
        : { state: "loading", html: null, minutes: null },
    );
    const timer = setTimeout(async () => {
      try {
        const response = await fetch(PREVIEW_URL, {
          method: "POST",
          headers: { "content-type": "application/json", accept: "application/json" },
          body: JSON.stringify({ markdown }),
          signal: controller.signal,
        });
        if (!response.ok) throw new Error(`preview answered ${response.status}`);
        const body = (await response.json()) as { html?: unknown; readingMinutes?: unknown };
        if (typeof body.html !== "string") throw new Error("preview answered without html");
        setPreview({
          state: "ready",
          html: body.html,
          minutes: typeof body.readingMinutes === "number" ? body.readingMinutes : 1,
        });
      } catch {
        if (!controller.signal.aborted) setPreview({ state: "error" });
      }
    }, PREVIEW_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [markdown, active]);

  const html = preview.state === "ready" || preview.state === "loading" ? preview.html : null;
  const minutes = preview.state === "ready" || preview.state === "loading" ? preview.minutes : null;
  return (
    <section className="space-y-2" aria-busy={preview.state === "loading"}>
      <div className="flex items-baseline justify-between gap-4">
        <h2 className="text-sm font-medium">{t("form.preview")}</h2>
        <p className="text-xs text-zinc-600 dark:text-zinc-400">
          {preview.state === "loading"
            ? t("form.previewLoading")
            : minutes !== null
              ? t("form.previewReadingTime", { count: minutes })
              : null}
        </p>
      </div>
      <div
        ref={scrollRef}
        data-testid="markdown-preview"
        lang={lang}
        className={`min-h-[6rem] rounded-md border border-dashed border-zinc-300 p-4 dark:border-zinc-700 ${boxClassName}`}
      >
        {title && <p className="mb-4 text-3xl font-bold">{title}</p>}
        {preview.state === "error" ? (
          <p className="text-sm text-zinc-600 dark:text-zinc-400">{t("form.previewError")}</p>
        ) : html !== null ? (
          <SanitizedHtml html={html} className="markdown" />
        ) : (
          <p className="text-sm text-zinc-600 dark:text-zinc-400">{t("form.previewEmpty")}</p>
        )}
      </div>
    </section>
  );
}
