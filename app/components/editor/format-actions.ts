import {
  codeBlock,
  insertLink,
  insertTable,
  type TextEdit,
  toggleInline,
  toggleLines,
} from "../../lib/writing/markdown-edits.ts";

// The formatting toolbar's actions (issue 47): each writes plain Markdown through a pure edit
// (lib/writing/markdown-edits.ts), with its keyboard shortcut in CodeMirror's key names
// ("Mod" is Ctrl, or ⌘ on a Mac). The image action uploads first (markdown-editor.tsx).

export type FormatId =
  | "bold"
  | "italic"
  | "heading"
  | "link"
  | "quote"
  | "code"
  | "codeBlock"
  | "bullet"
  | "numbered"
  | "image"
  | "table";

export interface FormatAction {
  id: FormatId;
  /** CodeMirror's key name, when the action has a shortcut. */
  key?: string;
  /** The edit; none for the image, which asks for a file first. */
  edit?: (doc: string, from: number, to: number) => TextEdit;
}

export const FORMAT_ACTIONS: readonly FormatAction[] = [
  { id: "bold", key: "Mod-b", edit: (d, f, t) => toggleInline(d, f, t, "bold") },
  { id: "italic", key: "Mod-i", edit: (d, f, t) => toggleInline(d, f, t, "italic") },
  { id: "heading", key: "Mod-Alt-h", edit: (d, f, t) => toggleLines(d, f, t, "heading") },
  { id: "link", key: "Mod-k", edit: insertLink },
  { id: "quote", key: "Mod-Shift-.", edit: (d, f, t) => toggleLines(d, f, t, "quote") },
  { id: "code", key: "Mod-e", edit: (d, f, t) => toggleInline(d, f, t, "code") },
  { id: "codeBlock", key: "Mod-Alt-c", edit: codeBlock },
  { id: "bullet", key: "Mod-Shift-8", edit: (d, f, t) => toggleLines(d, f, t, "bullet") },
  { id: "numbered", key: "Mod-Shift-7", edit: (d, f, t) => toggleLines(d, f, t, "numbered") },
  { id: "image" },
  { id: "table", edit: (d, f) => insertTable(d, f) },
];

/** A shortcut as the writer's keyboard names it: "Ctrl+B", or "⌘B" on a Mac. */
export function shortcutLabel(key: string, mac: boolean): string {
  const parts = key.split("-").map((part) => {
    if (part === "Mod") return mac ? "⌘" : "Ctrl";
    if (part === "Alt") return mac ? "⌥" : "Alt";
    if (part === "Shift") return mac ? "⇧" : "Shift";
    return part.length === 1 ? part.toUpperCase() : part;
  });
  return mac ? parts.join("") : parts.join("+");
}
