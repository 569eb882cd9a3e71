import { type RefObject, useEffect, useRef } from "react";

/** The part of a box's scroll range it is at (0 at the top, 1 at the bottom). */
function fractionOf(box: HTMLElement): number {
  const range = box.scrollHeight - box.clientHeight;
  return range > 0 ? box.scrollTop / range : 0;
}

/**
 * Keeps the preview beside the text scrolled in step with it (issue 47), both ways: when
 * the writer scrolls the text, the preview moves to the same fraction of its own height,
 * and when they scroll the preview, the text does. Returns the ref for the preview's
 * scrolling box.
 *
 * A position set here makes the other box fire a scroll event of its own, a frame later.
 * That echo must not be taken for the writer's scrolling, or each box would set the other
 * back and forth (a jitter, or a box that cannot be scrolled). So each box remembers the
 * position last set on it; a scroll event that finds the box there is the echo and is
 * dropped. Any other scroll event is the writer's, and that box leads.
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
    const box = preview.current;
    if (!scroller || !box) return;
    const setBy = new Map<HTMLElement, number>();
    /** Moves `to` to the fraction `from` is at, and remembers where it was put. */
    const align = (from: HTMLElement, to: HTMLElement) => {
      const top = Math.round(fractionOf(from) * (to.scrollHeight - to.clientHeight));
      if (Math.abs(to.scrollTop - top) < 1) return;
      to.scrollTop = top;
      // The browser may clamp or round what it was given: remember what it took.
      setBy.set(to, to.scrollTop);
    };
    const follow = (from: HTMLElement, to: HTMLElement) => () => {
      const expected = setBy.get(from);
      if (expected !== undefined) {
        setBy.delete(from);
        if (Math.abs(from.scrollTop - expected) <= 1) return;
      }
      align(from, to);
    };
    const fromText = follow(scroller, box);
    const fromPreview = follow(box, scroller);
    align(scroller, box);
    scroller.addEventListener("scroll", fromText, { passive: true });
    box.addEventListener("scroll", fromPreview, { passive: true });
    return () => {
      scroller.removeEventListener("scroll", fromText);
      box.removeEventListener("scroll", fromPreview);
    };
  }, [form, field, on, text]);
  return preview;
}
