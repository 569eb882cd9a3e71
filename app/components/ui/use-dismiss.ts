import { useEffect, useRef } from "react";
import { useLocation } from "react-router";

/**
 * Closes an open disclosure (the header's "More" menu, the account menu) on Escape (focus back
 * on its summary), on a click outside it and on a navigation, once the page runs React; a lean
 * document's `<details>` opens and closes by its summary alone. Not on mount: a menu opened
 * before hydration stays open.
 */
export function useDismiss(ref: React.RefObject<HTMLDetailsElement | null>): void {
  const location = useLocation();
  const shownKey = useRef(location.key);
  useEffect(() => {
    if (shownKey.current === location.key) return;
    shownKey.current = location.key;
    if (ref.current) ref.current.open = false;
  }, [location.key, ref]);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const menu = ref.current;
      if (event.key !== "Escape" || !menu?.open) return;
      event.preventDefault();
      menu.open = false;
      menu.querySelector("summary")?.focus();
    };
    const onPointer = (event: PointerEvent) => {
      const menu = ref.current;
      if (menu?.open && event.target instanceof Node && !menu.contains(event.target)) menu.open = false;
    };
    document.addEventListener("keydown", onKey);
    document.addEventListener("pointerdown", onPointer);
    return () => {
      document.removeEventListener("keydown", onKey);
      document.removeEventListener("pointerdown", onPointer);
    };
  }, [ref]);
}
