import { type KeyboardEvent, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { FORMAT_ACTIONS, type FormatId, shortcutLabel } from "./format-actions.ts";

// The formatting toolbar over the body (issue 47): one tab stop, the arrow keys, Home and End
// moving between its buttons (a roving tab index), each button named for screen readers with
// its shortcut in its tooltip. Pressing a button keeps the text's selection: it acts on it.

const GLYPH: Record<FormatId, string> = {
  bold: "B",
  italic: "I",
  heading: "H",
  link: "[ ]",
  quote: "❝",
  code: "</>",
  codeBlock: "{ }",
  bullet: "•",
  // Drawn by CSS from data-label: as text, "1." would be a visible label its name lacks.
  numbered: "",
  image: "▣",
  table: "▦",
};

const STYLE: Partial<Record<FormatId, string>> = {
  bold: "font-bold",
  italic: "font-serif italic",
  heading: "font-bold",
};

export function FormatToolbar({
  controls,
  onAction,
  imageBusy,
}: {
  /** The editable area's id. */
  controls: string;
  onAction(id: FormatId): void;
  imageBusy: boolean;
}) {
  const { t } = useTranslation("writing");
  const [current, setCurrent] = useState(0);
  const buttons = useRef<Array<HTMLButtonElement | null>>([]);
  const mac = typeof navigator !== "undefined" && /Mac|iPhone|iPad/.test(navigator.platform);
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const last = FORMAT_ACTIONS.length - 1;
    const next =
      event.key === "ArrowRight"
        ? (current + 1) % (last + 1)
        : event.key === "ArrowLeft"
          ? (current + last) % (last + 1)
          : event.key === "Home"
            ? 0
            : event.key === "End"
              ? last
              : null;
    if (next === null) return;
    event.preventDefault();
    setCurrent(next);
    buttons.current[next]?.focus();
  };
  return (
    <div
      role="toolbar"
      aria-label={t("toolbar.label")}
      aria-controls={controls}
      data-format-toolbar=""
      onKeyDown={onKeyDown}
      className="flex flex-wrap gap-1 border-b border-zinc-200 py-1 dark:border-zinc-800"
    >
      {FORMAT_ACTIONS.map((action, index) => {
        const name = t(`toolbar.${action.id}`);
        return (
          <button
            key={action.id}
            ref={(el) => {
              buttons.current[index] = el;
            }}
            type="button"
            tabIndex={index === current ? 0 : -1}
            aria-label={name}
            title={action.key ? t("toolbar.shortcut", { name, keys: shortcutLabel(action.key, mac) }) : name}
            aria-keyshortcuts={
              action.key ? action.key.replace("Mod", mac ? "Meta" : "Control").replaceAll("-", "+") : undefined
            }
            disabled={action.id === "image" && imageBusy}
            data-format={action.id}
            data-label={action.id === "numbered" ? "1." : undefined}
            onFocus={() => setCurrent(index)}
            // Keep the text's selection and focus: the button acts on them.
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => onAction(action.id)}
            className={`min-w-8 rounded px-2 py-1 text-sm text-zinc-800 hover:bg-zinc-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-600 disabled:opacity-60 dark:text-zinc-200 dark:hover:bg-zinc-800 ${STYLE[action.id] ?? ""}`}
          >
            <span aria-hidden="true">{GLYPH[action.id]}</span>
          </button>
        );
      })}
    </div>
  );
}
