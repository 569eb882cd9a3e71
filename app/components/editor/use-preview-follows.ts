import { type RefObject, useEffect, useRef } from "react";

/**
 * Keeps the preview beside the text scrolled in step with it (issue 47): as the text's
 * scroller moves, the preview moves to the same fraction of its own height. Returns the ref
 * for the preview's scrolling box.
 */
export function usePreviewFollows(
  form: RefObject<HTMLFormElement | null>,
  field: string,
  on: boolean,
  /** The text: a new rendering changes the preview's height. */
  text: string,
) {
  const preview = useRef<HTMLDivElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: re-aligned when the text changes
  useEffect(() => {
    if (!on) return;
    const scroller = form.current?.querySelector<HTMLElement>(`[data-editor-for="${field}"] .cm-scroller`);
    if (!scroller) return;
    const follow = () => {
      const box = preview.current;
      if (!box) return;
      const range = scroller.scrollHeight - scroller.clientHeight;
      const fraction = range > 0 ? scroller.scrollTop / range : 0;
      box.scrollTop = fraction * (box.scrollHeight - box.clientHeight);
    };
    follow();
    scroller.addEventListener("scroll", follow, { passive: true });
    return () => scroller.removeEventListener("scroll", follow);
  }, [form, field, on, text]);
  return preview;
}
