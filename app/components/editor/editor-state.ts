import { type EditorValues, toBrowserTime } from "../../lib/editor-values.ts";
import type { FieldErrors } from "../../lib/forms.ts";
import type { Locale } from "../../lib/i18n/locale.ts";
import { type EditorStatus, translationField } from "../../lib/schemas/post.ts";
import type { LocalDraft } from "./local-draft.ts";

/** The saved version a save collided with (409), as the action returns it. */
export interface ConflictInfo {
  version: number;
  updatedAt: string;
  status: EditorStatus;
  values: EditorValues;
}

/** Everything the post editor remembers between renders (post-editor.tsx). */
export interface EditorState {
  /** What counts as saved: leaving with other values asks first, and autosave keeps them. */
  initial: EditorValues;
  values: EditorValues;
  /** The version a save is based on; null for a new post. */
  version: number | null;
  /** The language tab shown. */
  active: Locale;
  /** The browser's own check of the form, before it is sent. */
  clientErrors: FieldErrors | null;
  /** An unsaved draft found in this browser, waiting for restore or discard. */
  offer: LocalDraft | null;
  /** The conflict the author answered by loading the saved version. */
  dismissedConflict: ConflictInfo | null;
  /** When the values were last kept in this browser. */
  keptAt: number | null;
  /** The browser's time zone; null until the page is hydrated (the server renders in UTC). */
  zone: string | null;
  /** The dated boxes the author set themselves: a new publish time then leaves them alone. */
  touched: Partial<Record<DatedBox, true>>;
}

/** A publish time (the form's local value) more than a day ago: an imported or back-dated post. */
export function isBackdated(local: string): boolean {
  const at = local ? Date.parse(local) : Number.NaN;
  return Number.isFinite(at) && at < Date.now() - 24 * 60 * 60 * 1000;
}

/** "Email subscribers" and "Share on the Fediverse", by their form fields. */
export type DatedBox = "newsletter" | "federate";

/**
 * Whether each box follows the publish time (until the author sets it): ticked for a time from
 * yesterday on, unticked for a back-dated one.
 */
const FOLLOWS_DATE: Record<DatedBox, (initial: EditorValues) => boolean> = {
  // A post dated well in the past (an import, a back-dated post) is not mailed unless the author says so.
  newsletter: (initial) => initial.newsletter === "1",
  // Likewise it is not sent to Fediverse followers as news (a post not yet live only: a live
  // post's box is what the author chose).
  federate: (initial) => initial.federate === "1" && initial.status !== "published",
};

export type EditorAction =
  /** The page came alive in a browser: times move to its zone, and a draft may be offered. */
  | { type: "hydrated"; zone: string; loaded: EditorValues; offer: LocalDraft | null }
  | { type: "field"; name: string; value: string }
  /** The publish time, with the browser's offset for it (it changes across summer time). */
  | { type: "publishAt"; value: string; offset: string }
  /** The "email subscribers" or the "Share on the Fediverse" box, set by the author. */
  | { type: DatedBox; on: boolean }
  | { type: "tab"; locale: Locale }
  | { type: "checked"; errors: FieldErrors | null }
  | { type: "kept"; at: number | null }
  | { type: "restore"; draft: LocalDraft; postVersion: number | null; uiLocale: Locale }
  | { type: "discardOffer" }
  | { type: "loadTheirs"; theirs: ConflictInfo };

/** Which language tab opens first: the reader's, unless only the other one has text. */
export function firstTab(values: EditorValues, uiLocale: Locale): Locale {
  const other: Locale = uiLocale === "en" ? "zh" : "en";
  const has = (l: Locale) => (values[translationField(l, "Title")] ?? "") !== "";
  return !has(uiLocale) && has(other) ? other : uiLocale;
}

export function initialEditorState(opts: {
  loaded: EditorValues;
  submitted: EditorValues | null;
  version: number | null;
  uiLocale: Locale;
}): EditorState {
  const values = opts.submitted ?? opts.loaded;
  return {
    initial: opts.loaded,
    values,
    version: opts.version,
    active: firstTab(values, opts.uiLocale),
    clientErrors: null,
    offer: null,
    dismissedConflict: null,
    keptAt: null,
    zone: null,
    touched: {},
  };
}

export function editorReducer(state: EditorState, action: EditorAction): EditorState {
  switch (action.type) {
    case "hydrated": {
      const local = toBrowserTime(action.loaded);
      // Values still as loaded take the browser's times; submitted ones are converted too.
      const values = state.values === action.loaded ? local : toBrowserTime(state.values);
      return { ...state, zone: action.zone, initial: local, values, offer: action.offer };
    }
    case "field":
      return { ...state, values: { ...state.values, [action.name]: action.value } };
    case "publishAt": {
      const values: EditorValues = { ...state.values, publishAtLocal: action.value, publishAtTz: action.offset };
      const backdated = isBackdated(action.value);
      for (const box of ["newsletter", "federate"] as const)
        if (!state.touched[box] && FOLLOWS_DATE[box](state.initial)) values[box] = backdated ? "" : "1";
      return { ...state, values };
    }
    case "newsletter":
    case "federate":
      return {
        ...state,
        touched: { ...state.touched, [action.type]: true },
        values: { ...state.values, [action.type]: action.on ? "1" : "" },
      };
    case "tab":
      return { ...state, active: action.locale };
    case "checked":
      return { ...state, clientErrors: action.errors };
    case "kept":
      return { ...state, keptAt: action.at };
    case "restore": {
      const { draft, postVersion } = action;
      // A draft made on an older version must not silently overwrite the newer one:
      // saving it goes through the conflict view.
      const older = postVersion !== null && draft.baseVersion !== null && draft.baseVersion < postVersion;
      return {
        ...state,
        values: draft.values,
        version: older ? draft.baseVersion : state.version,
        active: firstTab(draft.values, action.uiLocale),
        offer: null,
      };
    }
    case "discardOffer":
      return { ...state, offer: null };
    case "loadTheirs": {
      const local = toBrowserTime(action.theirs.values);
      return {
        ...state,
        values: local,
        initial: local,
        version: action.theirs.version,
        clientErrors: null,
        dismissedConflict: action.theirs,
      };
    }
  }
}
