import { EDITOR_FIELDS, type EditorValues } from "../../lib/editor-values.ts";

/** What the editor keeps in localStorage while someone types. */
export interface LocalDraft {
  /** When it was written (the browser's clock). */
  savedAt: number;
  /** Set when the form was submitted with exactly these values. */
  submittedAt?: number;
  /** The create form's idempotency key (which becomes the post's id). */
  key: string | null;
  /** The post's version the form was loaded at; null for a new post. */
  baseVersion: number | null;
  values: EditorValues;
}

const PREFIX = "inkwell:editor-draft:";

/** One draft per post, and one for "new". */
export function draftStorageKey(postId: string | null): string {
  return `${PREFIX}${postId ?? "new"}`;
}

function storage(): Storage | null {
  try {
    return typeof window === "undefined" ? null : window.localStorage;
  } catch {
    return null; // storage disabled
  }
}

export function readDraft(storageKey: string): LocalDraft | null {
  const raw = storage()?.getItem(storageKey);
  if (!raw) return null;
  try {
    const parsed = JSON.parse(raw) as Partial<LocalDraft>;
    if (typeof parsed.savedAt !== "number" || typeof parsed.values !== "object" || parsed.values === null) return null;
    const values: EditorValues = {};
    for (const name of EDITOR_FIELDS) {
      const v = (parsed.values as Record<string, unknown>)[name];
      values[name] = typeof v === "string" ? v : "";
    }
    return {
      savedAt: parsed.savedAt,
      submittedAt: typeof parsed.submittedAt === "number" ? parsed.submittedAt : undefined,
      key: typeof parsed.key === "string" ? parsed.key : null,
      baseVersion: typeof parsed.baseVersion === "number" ? parsed.baseVersion : null,
      values,
    };
  } catch {
    return null;
  }
}

/** Writes a draft; false when the browser refuses (quota, private mode). */
export function writeDraft(storageKey: string, draft: LocalDraft): boolean {
  try {
    storage()?.setItem(storageKey, JSON.stringify(draft));
    return true;
  } catch {
    return false;
  }
}

export function removeDraft(storageKey: string): void {
  try {
    storage()?.removeItem(storageKey);
  } catch {
    // nothing to do
  }
}

/**
 * Whether a draft was saved: it was submitted unchanged (nothing typed after the
 * submit) and the post now exists at a newer version than the draft's base.
 */
export function draftWasSaved(draft: LocalDraft, post: { id: string; version: number }): boolean {
  if (draft.submittedAt === undefined || draft.savedAt > draft.submittedAt) return false;
  if (draft.baseVersion === null) return draft.key === post.id;
  return post.version > draft.baseVersion;
}

/** The writing screen's remembered view: the settings panel open, the preview beside the text. */
export interface ViewChoice {
  settings: boolean;
  split: boolean;
}

const VIEW_KEY = "inkwell:editor-view";

export function readViewChoice(): ViewChoice | null {
  try {
    const parsed = JSON.parse(storage()?.getItem(VIEW_KEY) ?? "null") as Partial<ViewChoice> | null;
    if (!parsed || typeof parsed !== "object") return null;
    return { settings: parsed.settings === true, split: parsed.split === true };
  } catch {
    return null;
  }
}

export function keepViewChoice(choice: ViewChoice): void {
  try {
    storage()?.setItem(VIEW_KEY, JSON.stringify(choice));
  } catch {
    // the view is simply not remembered
  }
}
