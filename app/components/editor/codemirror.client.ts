// CodeMirror for the post body. Loaded only by the editor, in the browser, with a
// dynamic import: blog pages never download it.
import { defaultKeymap, history, historyKeymap } from "@codemirror/commands";
import { markdownKeymap, markdownLanguage, pasteURLAsLink } from "@codemirror/lang-markdown";
import { HighlightStyle, LanguageSupport, syntaxHighlighting } from "@codemirror/language";
import { Compartment, EditorState, Prec } from "@codemirror/state";
import { drawSelection, EditorView, keymap } from "@codemirror/view";
import { tags } from "@lezer/highlight";
import { imageFiles } from "../../lib/media.ts";
import type { TextEdit } from "../../lib/writing/markdown-edits.ts";
import { FORMAT_ACTIONS } from "./format-actions.ts";

export interface MountedEditor {
  /** Replaces the text when it differs (a restored draft, the other version loaded). */
  setValue(value: string): void;
  /** ARIA and language attributes of the editable area. */
  setAttributes(attributes: Record<string, string>): void;
  /** Replaces the selection with `text` (or inserts it at the cursor). */
  insert(text: string): void;
  /** The text and the selection. */
  read(): { doc: string; from: number; to: number; head: number };
  /** Applies an edit of lib/writing/markdown-edits.ts, as one undoable step. */
  apply(edit: TextEdit): void;
  /** The scrolling element, for the preview to follow. */
  scroller: HTMLElement;
  focus(): void;
  destroy(): void;
}

// Colours through variables, so the dark theme (a `dark` class on <html>) keeps
// every token readable (contrast >= 4.5 on both backgrounds).
const theme = EditorView.theme({
  "&": {
    fontSize: "0.95rem",
    backgroundColor: "transparent",
    color: "inherit",
    "--md-link": "#1d4ed8",
    "--md-code": "#9f1239",
    "--md-quote": "#3f3f46",
    "--md-mark": "#52525b",
  },
  ".dark &": {
    "--md-link": "#93c5fd",
    "--md-code": "#fda4af",
    "--md-quote": "#d4d4d8",
    "--md-mark": "#a1a1aa",
  },
  ".cm-content": {
    fontFamily: "ui-monospace, SFMono-Regular, Menlo, Consolas, monospace",
    minHeight: "var(--editor-min-height, 20rem)",
    padding: "0.5rem 0",
    caretColor: "currentColor",
  },
  ".cm-scroller": { maxHeight: "var(--editor-max-height, 70vh)", overflow: "auto" },
  "&.cm-focused": { outline: "none" },
});

/** Applies a pure edit to the view: one transaction, one undo step, the cursor kept in sight. */
function dispatchEdit(view: EditorView, edit: TextEdit): void {
  view.dispatch({
    changes: { from: edit.from, to: edit.to, insert: edit.insert },
    selection: { anchor: edit.anchor, head: edit.head },
    scrollIntoView: true,
    userEvent: "input",
  });
}

/** The toolbar's shortcuts: Ctrl/⌘+B, I, K… (format-actions.ts). */
const formatKeymap = FORMAT_ACTIONS.flatMap((action) => {
  const { key, edit } = action;
  if (!key || !edit) return [];
  return [
    {
      key,
      run(view: EditorView) {
        const { from, to } = view.state.selection.main;
        dispatchEdit(view, edit(view.state.doc.toString(), from, to));
        return true;
      },
    },
  ];
});

const markdownHighlight = HighlightStyle.define([
  { tag: tags.heading, fontWeight: "700" },
  { tag: tags.emphasis, fontStyle: "italic" },
  { tag: tags.strong, fontWeight: "700" },
  { tag: tags.strikethrough, textDecoration: "line-through" },
  { tag: [tags.link, tags.url], color: "var(--md-link)", textDecoration: "underline" },
  { tag: tags.monospace, color: "var(--md-code)" },
  { tag: tags.quote, color: "var(--md-quote)", fontStyle: "italic" },
  { tag: [tags.processingInstruction, tags.contentSeparator, tags.meta], color: "var(--md-mark)" },
]);

/**
 * Mounts an editor into `parent` with `value`; every change goes to `onChange`.
 * Tab is left to the browser (moving focus), so keyboard users are never trapped.
 */
export function mountMarkdownEditor(
  parent: HTMLElement,
  options: {
    value: string;
    onChange(value: string): void;
    attributes: Record<string, string>;
    /** Image files pasted or dropped into the editor; without it they are left to the browser. */
    onImageFiles?: (files: File[]) => void;
  },
): MountedEditor {
  const attributes = new Compartment();
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc: options.value,
      extensions: [
        history(),
        drawSelection(),
        keymap.of([...defaultKeymap, ...historyKeymap]),
        // GitHub-flavoured Markdown without the HTML language: our renderer drops raw
        // HTML anyway, and leaving it out keeps this chunk a third of the size.
        new LanguageSupport(markdownLanguage),
        Prec.high(keymap.of(markdownKeymap)),
        Prec.highest(keymap.of(formatKeymap)),
        pasteURLAsLink,
        syntaxHighlighting(markdownHighlight),
        EditorView.lineWrapping,
        theme,
        attributes.of(EditorView.contentAttributes.of(options.attributes)),
        EditorView.domEventHandlers({
          paste(event, view) {
            const files = imageFiles(event.clipboardData?.files);
            if (!options.onImageFiles || files.length === 0) return false;
            event.preventDefault();
            view.focus();
            options.onImageFiles(files);
            return true;
          },
          drop(event, view) {
            const files = imageFiles(event.dataTransfer?.files);
            if (!options.onImageFiles || files.length === 0) return false;
            event.preventDefault();
            // Put the cursor where the files were dropped: the images go there.
            const at = view.posAtCoords({ x: event.clientX, y: event.clientY });
            if (at !== null) view.dispatch({ selection: { anchor: at } });
            options.onImageFiles(files);
            return true;
          },
        }),
        EditorView.updateListener.of((update) => {
          if (update.docChanged) options.onChange(update.state.doc.toString());
        }),
      ],
    }),
  });
  return {
    setValue(value) {
      const current = view.state.doc.toString();
      if (current !== value) view.dispatch({ changes: { from: 0, to: current.length, insert: value } });
    },
    setAttributes(next) {
      view.dispatch({ effects: attributes.reconfigure(EditorView.contentAttributes.of(next)) });
    },
    insert(text) {
      view.dispatch(view.state.replaceSelection(text));
    },
    read() {
      const { from, to, head } = view.state.selection.main;
      return { doc: view.state.doc.toString(), from, to, head };
    },
    apply: (edit) => dispatchEdit(view, edit),
    scroller: view.scrollDOM,
    focus: () => view.focus(),
    destroy: () => view.destroy(),
  };
}
