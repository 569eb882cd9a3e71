/**
 * The reader script: everything an anonymous reader's page does in the browser, without
 * React (docs/decisions/024-lean-reading-pages.md). The page is complete without it; this
 * adds the theme toggle, the phone menu, the bar that hides on scroll, the home carousel,
 * code copy buttons, closing flash messages, the footer's in-place subscribe answer and the follow
 * box's copy button, and it
 * tells the server when a prefetched or prerendered page is shown (so it counts as read).
 * It finds its elements by `data-*` attributes the React components render, so the same
 * markup serves hydrated pages (where React handles them and this file never loads).
 * Built on its own by build-tools/reader-script.ts; loaded with `defer` and the CSP nonce.
 */

import { codeCopy } from "./code-copy.ts";
import {
  barHidden,
  FLASH_CLOSE_MS,
  leavesPage,
  nextTheme,
  READ_BEACON_HEADER,
  READ_REFERRER_HEADER,
  SLIDE_INTERVAL_MS,
  slideForKey,
  slideForSwipe,
  speculativeShow,
  THEME_KEY,
  wrapIndex,
} from "./logic.ts";

const doc = document;
const all = <T extends Element>(root: ParentNode, selector: string): T[] =>
  Array.from(root.querySelectorAll<T>(selector));

function themeToggle(): void {
  const root = doc.documentElement;
  for (const button of all<HTMLButtonElement>(doc, "[data-theme-toggle]")) {
    button.setAttribute("aria-pressed", String(root.classList.contains("dark")));
    button.addEventListener("click", () => {
      const next = nextTheme(root.classList.contains("dark"));
      root.classList.toggle("dark", next.dark);
      try {
        localStorage.setItem(THEME_KEY, next.saved);
      } catch {
        // No storage (private mode): the theme applies to this page only.
      }
      for (const b of all(doc, "[data-theme-toggle]")) b.setAttribute("aria-pressed", String(next.dark));
    });
  }
}

const MENU_OPEN_ICON = "M6 6l12 12M18 6L6 18";
const MENU_CLOSED_ICON = "M4 7h16M4 12h16M4 17h16";

/** The phone menu and the bar that hides on scroll (one header). */
function header(): void {
  const bar = doc.querySelector<HTMLElement>("[data-nav-bar]");
  const toggle = doc.querySelector<HTMLButtonElement>("[data-menu-toggle]");
  const menu = toggle && doc.getElementById(toggle.getAttribute("aria-controls") ?? "");
  let open = false;
  let hidden = false;
  const setHidden = (value: boolean) => {
    hidden = value;
    if (!bar) return;
    bar.dataset.hidden = String(value);
    bar.classList.toggle("-translate-y-full", value);
    bar.classList.toggle("translate-y-0", !value);
  };
  const setOpen = (value: boolean) => {
    if (!toggle || !menu) return;
    open = value;
    toggle.setAttribute("aria-expanded", String(value));
    toggle.setAttribute("aria-label", toggle.dataset[value ? "labelClose" : "labelOpen"] ?? "");
    toggle.querySelector("path")?.setAttribute("d", value ? MENU_OPEN_ICON : MENU_CLOSED_ICON);
    menu.classList.toggle("hidden", !value);
    menu.classList.toggle("flex", value);
    if (value) setHidden(false);
  };
  if (toggle && menu) {
    toggle.addEventListener("click", () => setOpen(!open));
    doc.addEventListener("keydown", (event) => {
      if (!open || event.key !== "Escape") return;
      setOpen(false);
      toggle.focus();
    });
    // Leaving the page closes it: a link or a form in the menu, and a page restored from the back/forward cache.
    menu.addEventListener("click", (event) => {
      const link = event.target instanceof Element ? event.target.closest("a[href]") : null;
      const modified = event.metaKey || event.ctrlKey || event.shiftKey || event.altKey || event.button !== 0;
      if (link instanceof HTMLAnchorElement) {
        const target = { href: link.href, target: link.target, download: link.hasAttribute("download") };
        if (leavesPage(target, location.href, modified)) setOpen(false);
      }
    });
    menu.addEventListener("submit", () => setOpen(false));
    addEventListener("pageshow", () => setOpen(false));
  }
  if (!bar) return;
  let lastY = scrollY;
  addEventListener(
    "scroll",
    () => {
      const y = scrollY;
      setHidden(barHidden({ hidden, lastY, y, pinned: open || bar.contains(doc.activeElement) }));
      lastY = y;
    },
    { passive: true },
  );
}

/**
 * The home carousel (WAI-ARIA carousel pattern, as the app's). Without script it is a row of
 * slides scrolled by hand (CSS scroll snap); here it becomes one slide at a time, moved by
 * buttons, arrow keys, swipes and, unless the reader asked for reduced motion, by itself.
 */
function carousel(section: HTMLElement): void {
  const slides = all<HTMLElement>(section, "[data-slide]");
  const dots = all<HTMLButtonElement>(section, "[data-slide-dot]");
  const viewport = section.querySelector<HTMLElement>("[data-slide-viewport]");
  const play = section.querySelector<HTMLButtonElement>("[data-slide-play]");
  const controls = section.querySelector<HTMLElement>("[data-slide-controls]");
  const count = slides.length;
  if (count < 2 || !viewport) return;
  const still = matchMedia("(prefers-reduced-motion: reduce)").matches;
  let current = 0;
  let playing = !still;
  // The script moves the row now: no hand scrolling (swipes are read as pointer moves).
  viewport.classList.replace("overflow-x-auto", "overflow-hidden");
  viewport.classList.add("touch-pan-y");
  if (controls) controls.hidden = false;
  const scrollToCurrent = (behavior: ScrollBehavior) =>
    viewport.scrollTo({ left: current * viewport.clientWidth, behavior });
  let hovered = false;
  let focused = false;
  let timer = 0;
  const show = (index: number) => {
    current = index;
    slides.forEach((slide, i) => {
      const on = i === index;
      slide.setAttribute("aria-hidden", String(!on));
      slide.inert = !on;
    });
    scrollToCurrent(still ? "instant" : "smooth");
    dots.forEach((dot, i) => {
      const on = i === index;
      if (on) dot.setAttribute("aria-current", "true");
      else dot.removeAttribute("aria-current");
      dot.classList.toggle("bg-zinc-700", on);
      dot.classList.toggle("dark:bg-zinc-200", on);
    });
  };
  const update = () => {
    const running = playing && !hovered && !focused;
    viewport.setAttribute("aria-live", running ? "off" : "polite");
    if (play) {
      play.textContent = play.dataset[playing ? "labelPause" : "labelPlay"] ?? "";
      play.setAttribute("aria-pressed", String(!playing));
    }
    clearInterval(timer);
    if (running) timer = window.setInterval(() => show(wrapIndex(current, 1, count)), SLIDE_INTERVAL_MS);
  };
  section.querySelector("[data-slide-prev]")?.addEventListener("click", () => show(wrapIndex(current, -1, count)));
  section.querySelector("[data-slide-next]")?.addEventListener("click", () => show(wrapIndex(current, 1, count)));
  dots.forEach((dot, i) => {
    dot.addEventListener("click", () => show(i));
  });
  play?.addEventListener("click", () => {
    playing = !playing;
    update();
  });
  section.addEventListener("keydown", (event) => {
    const to = slideForKey(event.key, current, count);
    if (to === null) return;
    event.preventDefault();
    show(to);
  });
  section.addEventListener("mouseenter", () => {
    hovered = true;
    update();
  });
  section.addEventListener("mouseleave", () => {
    hovered = false;
    update();
  });
  section.addEventListener("focusin", () => {
    focused = true;
    update();
  });
  section.addEventListener("focusout", (event) => {
    if (event.relatedTarget instanceof Node && section.contains(event.relatedTarget)) return;
    focused = false;
    update();
  });
  let swipeFrom: number | null = null;
  viewport.addEventListener("pointerdown", (event) => {
    swipeFrom = event.clientX;
  });
  let swiped = false;
  viewport.addEventListener("pointerup", (event) => {
    if (swipeFrom === null) return;
    const to = slideForSwipe(event.clientX - swipeFrom, current, count);
    swiped = to !== current;
    show(to);
    swipeFrom = null;
  });
  // A swipe that ends on a slide's link does not follow it.
  viewport.addEventListener(
    "click",
    (event) => {
      if (swiped) event.preventDefault();
      swiped = false;
    },
    true,
  );
  viewport.addEventListener("pointercancel", () => {
    swipeFrom = null;
  });
  addEventListener("resize", () => scrollToCurrent("instant"));
  show(0);
  update();
}

/** The server's flash message gets a close button and closes by itself after 5 s (paused on hover or focus). */
function flash(message: HTMLElement): void {
  const close = doc.createElement("button");
  close.type = "button";
  close.className = "ml-3 float-right leading-none";
  close.setAttribute("aria-label", message.dataset.closeLabel ?? "Close");
  close.setAttribute("data-flash-close", "");
  close.textContent = "×";
  message.append(close);
  const remove = () => (message.parentElement ?? message).remove();
  close.addEventListener("click", remove);
  let left = FLASH_CLOSE_MS;
  let started = Date.now();
  let timer = window.setTimeout(remove, left);
  const pause = () => {
    clearTimeout(timer);
    left -= Date.now() - started;
  };
  const resume = () => {
    started = Date.now();
    timer = window.setTimeout(remove, Math.max(left, 0));
  };
  message.addEventListener("mouseenter", pause);
  message.addEventListener("mouseleave", resume);
  message.addEventListener("focusin", pause);
  message.addEventListener("focusout", resume);
}

/** Marks a field invalid with a message under it (replacing an earlier one) and puts focus on it. */
function showFieldError(input: HTMLInputElement, message: string): void {
  let error = input.form?.querySelector<HTMLElement>("[data-field-error]");
  if (!error) {
    error = doc.createElement("p");
    error.id = `${input.id}-error`;
    error.className = "text-red-700 dark:text-red-400";
    error.setAttribute("data-field-error", "");
    input.parentElement?.after(error);
  }
  error.textContent = message;
  const id = error.id;
  input.setAttribute("aria-invalid", "true");
  const described = (input.getAttribute("aria-describedby") ?? "").split(" ").filter((x) => x && x !== id);
  input.setAttribute("aria-describedby", [...described, id].join(" "));
  input.focus();
}

/**
 * The footer's subscribe form answers in place: it posts the same form (a document
 * request, as without script) and puts the subscribe page's form, with its answer, in its place.
 */
function inlineSubscribe(form: HTMLFormElement): void {
  const root = form.closest("[data-subscribe-root]");
  const input = form.querySelector<HTMLInputElement>("input[name=email]");
  if (!root || !input) return;
  // The address is checked here first, with the site's own words (as the React form does).
  form.noValidate = true;
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const email = input.value;
    const problem = input.validity.valueMissing
      ? input.dataset.requiredMessage
      : input.validity.valid
        ? null
        : input.dataset.invalidMessage;
    if (problem) {
      showFieldError(input, problem);
      return;
    }
    const button = form.querySelector<HTMLButtonElement>("button[type=submit]");
    if (button) button.disabled = true;
    fetch(form.action, { method: "POST", body: new FormData(form), credentials: "same-origin" })
      .then((response) => response.text())
      .then((html) => {
        const answered = new DOMParser().parseFromString(html, "text/html").querySelector("main [data-subscribe-root]");
        if (!answered) throw new Error("no answer");
        const next = doc.importNode(answered, true);
        const nextForm = next.querySelector("form");
        const nextInput = nextForm?.querySelector<HTMLInputElement>("input[name=email]");
        if (!nextForm || !nextInput) throw new Error("no form");
        nextForm.setAttribute("data-subscribe-inline", "");
        nextInput.dataset.requiredMessage = input.dataset.requiredMessage ?? "";
        nextInput.dataset.invalidMessage = input.dataset.invalidMessage ?? "";
        // A refused address stays in the field to be corrected.
        if (next.querySelector("[aria-invalid=true], [role=alert]")) nextInput.value = email;
        root.replaceWith(next);
        inlineSubscribe(nextForm);
      })
      .catch(() => form.submit())
      .finally(() => {
        if (button) button.disabled = false;
      });
  });
}

/**
 * Copy buttons (the follow box's handle): hidden in the markup, shown here; a click copies
 * `data-copy-text` and says `data-copied` on the button and in the nearby status region.
 */
function copyButton(button: HTMLButtonElement): void {
  const label = button.textContent;
  const status = button.parentElement?.querySelector("[data-copy-status]");
  button.hidden = false;
  button.addEventListener("click", () => {
    navigator.clipboard?.writeText(button.dataset.copyText ?? "").then(
      () => {
        const word = button.dataset.copied ?? "";
        button.textContent = word;
        if (status) status.textContent = word;
        setTimeout(() => {
          button.textContent = label;
          if (status) status.textContent = "";
        }, 2000);
      },
      () => {},
    );
  });
}

/**
 * A prefetched or prerendered page was counted as nothing when the browser loaded it (the
 * server skips `Sec-Purpose: prefetch`): once it is shown, a HEAD to the same URL tells the
 * server to count it, with the referrer the reader came from.
 */
function countSpeculativeRead(): void {
  const nav = performance.getEntriesByType("navigation")[0] as
    | (PerformanceEntry & { activationStart?: number; deliveryType?: string })
    | undefined;
  const page = doc as Document & { prerendering?: boolean };
  const tell = () => {
    const headers: Record<string, string> = { [READ_BEACON_HEADER]: "1" };
    if (doc.referrer) headers[READ_REFERRER_HEADER] = doc.referrer;
    fetch(location.href, { method: "HEAD", headers, keepalive: true, cache: "no-store" }).catch(() => {});
  };
  const when = speculativeShow({
    prerendering: page.prerendering === true,
    activationStart: nav?.activationStart ?? 0,
    deliveryType: nav?.deliveryType ?? "",
  });
  if (when === "now") tell();
  else if (when === "activation") doc.addEventListener("prerenderingchange", tell, { once: true });
}

countSpeculativeRead();
themeToggle();
header();
codeCopy(doc);
for (const section of all<HTMLElement>(doc, "[data-carousel]")) carousel(section);
for (const message of all<HTMLElement>(doc, "[data-flash]")) flash(message);
for (const form of all<HTMLFormElement>(doc, "form[data-subscribe-inline]")) inlineSubscribe(form);
for (const button of all<HTMLButtonElement>(doc, "button[data-copy-text]")) copyButton(button);
