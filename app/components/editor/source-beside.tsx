import { type ReactNode, useEffect, useId, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { EditorValues } from "../../lib/editor-values.ts";
import { HTML_LANG, type Locale } from "../../lib/i18n/locale.ts";
import { headingLines, markdownSections, sectionAtLine } from "../../lib/markdown-sections.ts";
import { translationField } from "../../lib/schemas/post.ts";
import { BUTTON_SECONDARY } from "./editor-ui.ts";

// While writing one language, the other language's version beside it, read-only (issue 47),
// kept in step by heading: when the body editor scrolls, the panel shows the section of the
// other version with the same number of headings above it. A toggle, once the page runs in
// a browser; without JavaScript every language's fields show one after the other anyway.

const other = (locale: Locale): Locale => (locale === "en" ? "zh" : "en");

/** The structural part of CodeMirror's EditorView this panel reads (loaded with the editor). */
interface ViewLike {
  documentTop: number;
  scrollDOM: HTMLElement;
  state: { doc: { lineAt(pos: number): { number: number } } };
  lineBlockAtHeight(height: number): { from: number };
}

/** The number of the line at the top of the visible part of the body editor. */
function topLine(view: ViewLike): number {
  const visibleTop = Math.max(view.scrollDOM.getBoundingClientRect().top, 0);
  // A few pixels in: the line whose top is at the edge counts as the one shown.
  const block = view.lineBlockAtHeight(Math.max(visibleTop - view.documentTop + 4, 0));
  return view.state.doc.lineAt(block.from).number;
}

export function SourceBeside({
  locale,
  values,
  enabled,
  children,
}: {
  /** The language being written. */
  locale: Locale;
  values: EditorValues;
  /** The toggle shows for the tab shown, once the page runs in a browser. */
  enabled: boolean;
  children: ReactNode;
}) {
  const { t } = useTranslation("translations");
  const [shown, setShown] = useState(false);
  const id = useId();
  const wrapper = useRef<HTMLDivElement>(null);
  const panel = useRef<HTMLElement>(null);
  const source = other(locale);
  const sourceName = t(`languages.${source}`);
  const body = values[translationField(locale, "Body")] ?? "";
  const sourceTitle = values[translationField(source, "Title")] ?? "";
  const sourceSummary = values[translationField(source, "Summary")] ?? "";
  const sourceBody = values[translationField(source, "Body")] ?? "";
  const empty = !sourceTitle && !sourceSummary && !sourceBody;
  const sections = useMemo(() => markdownSections(sourceBody), [sourceBody]);
  const headings = useMemo(() => headingLines(body), [body]);
  const visible = shown && enabled;

  useEffect(() => {
    if (!visible) return;
    let view: ViewLike | null = null;
    let frame = 0;
    let cancelled = false;
    const sync = () => {
      frame = 0;
      const root = wrapper.current;
      const box = panel.current;
      if (!root || !box || !view) return;
      const index = sectionAtLine(headings, topLine(view));
      const target = box.querySelector<HTMLElement>(`[data-section="${index}"]`);
      if (target) box.scrollTop = target.offsetTop;
      box.dataset.syncedSection = String(index);
    };
    const onScroll = () => {
      if (!frame) frame = requestAnimationFrame(sync);
    };
    void import("@codemirror/view").then(({ EditorView }) => {
      const host = wrapper.current?.querySelector<HTMLElement>(".cm-editor");
      if (cancelled || !host) return;
      view = EditorView.findFromDOM(host) as ViewLike | null;
      sync();
    });
    // The editor scrolls inside itself or with the page: both reach the document in capture.
    document.addEventListener("scroll", onScroll, { capture: true, passive: true });
    return () => {
      cancelled = true;
      if (frame) cancelAnimationFrame(frame);
      document.removeEventListener("scroll", onScroll, { capture: true });
    };
  }, [visible, headings]);

  return (
    <div ref={wrapper} className={visible ? "lg:grid lg:grid-cols-2 lg:items-start lg:gap-6" : undefined}>
      <div className="min-w-0 space-y-5">
        {/* Offered once the other version has some text (not on a new post's empty form). */}
        {enabled && (!empty || visible) && (
          <button
            type="button"
            className={BUTTON_SECONDARY}
            aria-expanded={visible}
            aria-controls={id}
            onClick={() => setShown((s) => !s)}
            data-testid={`source-beside-toggle-${locale}`}
          >
            {visible ? t("beside.hide", { source: sourceName }) : t("beside.show", { source: sourceName })}
          </button>
        )}
        {children}
      </div>
      {visible && (
        <aside
          ref={panel}
          id={id}
          aria-label={t("beside.title", { source: sourceName })}
          data-testid={`source-beside-${locale}`}
          // Positioned, so each section's offsetTop is measured from the panel.
          className="relative mt-5 max-h-[80vh] space-y-4 overflow-y-auto rounded-md border border-zinc-200 bg-zinc-50 p-4 text-sm lg:sticky lg:top-4 lg:mt-0 dark:border-zinc-800 dark:bg-zinc-900"
          // A scrollable region must be reachable by keyboard.
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region needs focus to be scrolled by keyboard
          tabIndex={0}
        >
          <h2 className="font-semibold">{t("beside.title", { source: sourceName })}</h2>
          {empty ? (
            <p>{t("beside.empty", { source: sourceName })}</p>
          ) : (
            <div lang={HTML_LANG[source]} className="space-y-3">
              {sourceTitle && <p className="text-lg font-semibold">{sourceTitle}</p>}
              {sourceSummary && <p className="text-zinc-700 italic dark:text-zinc-300">{sourceSummary}</p>}
              {sections.map((text, i) =>
                i === 0 && !text.trim() ? (
                  <div key="intro" data-section={0} />
                ) : (
                  <pre
                    // biome-ignore lint/suspicious/noArrayIndexKey: sections are numbered by their heading
                    key={i}
                    data-section={i}
                    className="whitespace-pre-wrap break-words font-mono text-sm"
                  >
                    {text}
                  </pre>
                ),
              )}
            </div>
          )}
        </aside>
      )}
    </div>
  );
}
