/**
 * The code blocks' copy buttons (markup from app/server/render/post-markup.server.ts), in one place
 * for both kinds of page: the reader script calls it on lean pages, and app pages inline it
 * as a tiny script of its own (build-tools/reader-script.ts compiles code-copy-entry.ts), so
 * the buttons work before and without hydration. One click listener on the document serves
 * blocks a client-side navigation brings in later. It copies the block's text (the Clipboard
 * API, else a hidden textarea and execCommand for plain-http sites), then shows the button's
 * "Copied" word for two seconds and puts it in the block's status region, which screen
 * readers announce. No imports: it is bundled as it is.
 */
export function codeCopy(doc: Document): void {
  const legacy = (text: string) => {
    const area = doc.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.style.position = "fixed";
    area.style.opacity = "0";
    doc.body.append(area);
    area.select();
    let ok = false;
    try {
      ok = doc.execCommand("copy");
    } catch {
      ok = false;
    }
    area.remove();
    return ok ? Promise.resolve() : Promise.reject(new Error("copy refused"));
  };
  const timers = new WeakMap<Element, number>();
  doc.addEventListener("click", (event) => {
    const button = event.target instanceof Element ? event.target.closest("button.code-copy") : null;
    const block = button?.closest(".code-block");
    const pre = block?.querySelector("pre");
    if (!button || !block || !pre) return;
    const text = pre.textContent ?? "";
    const copying =
      navigator.clipboard && isSecureContext
        ? navigator.clipboard.writeText(text).catch(() => legacy(text))
        : legacy(text);
    copying.then(
      () => {
        const status = block.querySelector(".code-status");
        const word = button.getAttribute("data-copied") || "Copied";
        if (!button.hasAttribute("data-label")) button.setAttribute("data-label", button.textContent ?? "");
        button.textContent = word;
        if (status) {
          status.textContent = "";
          setTimeout(() => {
            status.textContent = word;
          }, 30);
        }
        clearTimeout(timers.get(button));
        timers.set(
          button,
          window.setTimeout(() => {
            button.textContent = button.getAttribute("data-label");
            if (status) status.textContent = "";
          }, 2000),
        );
      },
      () => {},
    );
  });
}
