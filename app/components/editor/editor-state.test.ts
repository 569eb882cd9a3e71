import { describe, expect, it } from "vitest";
import { type EditorValues, emptyEditorValues } from "../../lib/editor-values.ts";
import { editorReducer, firstTab, initialEditorState } from "./editor-state.ts";
import type { LocalDraft } from "./local-draft.ts";

const values = (changes: EditorValues = {}): EditorValues => ({ ...emptyEditorValues(), ...changes });

const loaded = values({ enTitle: "Saved title", enBody: "Saved body", publishAtTz: "60" });
const start = (submitted: EditorValues | null = null) =>
  initialEditorState({ loaded, submitted, version: 5, uiLocale: "en" });

const draft = (baseVersion: number | null, changes: EditorValues): LocalDraft => ({
  savedAt: 1,
  key: null,
  baseVersion,
  values: values(changes),
});

describe("the post editor's state", () => {
  it("starts from what was submitted when the action refused it, else from what was loaded", () => {
    expect(start().values).toBe(loaded);
    const submitted = values({ enTitle: "" });
    const state = start(submitted);
    expect(state.values).toBe(submitted);
    expect(state.initial).toBe(loaded);
    expect(state.version).toBe(5);
    expect(state.zone).toBeNull();
  });

  it("turns Share on the Fediverse off for a back-dated new post, unless the author set it", () => {
    const fresh = initialEditorState({ loaded: values(), submitted: null, version: null, uiLocale: "en" });
    expect(fresh.values.federate).toBe("1");
    const lastYear = editorReducer(fresh, { type: "publishAt", value: "2025-03-01T09:00", offset: "0" });
    expect(lastYear.values.federate).toBe("");
    // Back to now: on again.
    const soon = new Date(Date.now() + 60_000).toISOString().slice(0, 16);
    expect(editorReducer(lastYear, { type: "publishAt", value: soon, offset: "0" }).values.federate).toBe("1");
    // Ticked by hand: a back-dated time leaves it alone.
    const ticked = editorReducer(lastYear, { type: "federate", on: true });
    expect(editorReducer(ticked, { type: "publishAt", value: "2024-01-01T00:00", offset: "0" }).values.federate).toBe(
      "1",
    );
    // A live post's box is what the author chose: dates do not change it.
    const live = initialEditorState({
      loaded: values({ status: "published", federate: "1" }),
      submitted: null,
      version: 2,
      uiLocale: "en",
    });
    expect(editorReducer(live, { type: "publishAt", value: "2025-03-01T09:00", offset: "0" }).values.federate).toBe(
      "1",
    );
  });

  it("opens the other language's tab only when it alone has a title", () => {
    expect(firstTab(values({ zhTitle: "标题" }), "en")).toBe("zh");
    expect(firstTab(values({ enTitle: "Title", zhTitle: "标题" }), "en")).toBe("en");
    expect(firstTab(values(), "zh")).toBe("zh");
    expect(
      initialEditorState({ loaded: values({ zhTitle: "标题" }), submitted: null, version: null, uiLocale: "en" })
        .active,
    ).toBe("zh");
  });

  it("keeps typing and the publish time with its offset", () => {
    let state = editorReducer(start(), { type: "field", name: "slug", value: "my-post" });
    state = editorReducer(state, { type: "publishAt", value: "2026-12-01T09:00", offset: "-60" });
    expect(state.values).toMatchObject({ slug: "my-post", publishAtLocal: "2026-12-01T09:00", publishAtTz: "-60" });
    expect(state.initial).toBe(loaded);
  });

  it("offers a draft found on hydration and restores it, on its own base version when that is older", () => {
    const older = draft(3, { enTitle: "Typed on version 3" });
    let state = editorReducer(start(), { type: "hydrated", zone: "Asia/Shanghai", loaded, offer: older });
    expect(state.zone).toBe("Asia/Shanghai");
    expect(state.offer).toBe(older);
    state = editorReducer(state, { type: "restore", draft: older, postVersion: 5, uiLocale: "en" });
    expect(state.values.enTitle).toBe("Typed on version 3");
    // Saving it now meets the newer version in the conflict view, never overwrites it.
    expect(state.version).toBe(3);
    expect(state.offer).toBeNull();
  });

  it("restores a draft of the current version on that version, and a Chinese-only draft on its tab", () => {
    const current = draft(5, { zhTitle: "只有中文" });
    const state = editorReducer(start(), { type: "restore", draft: current, postVersion: 5, uiLocale: "en" });
    expect(state.version).toBe(5);
    expect(state.active).toBe("zh");
    const fresh = editorReducer(initialEditorState({ loaded, submitted: null, version: null, uiLocale: "en" }), {
      type: "restore",
      draft: draft(null, {}),
      postVersion: null,
      uiLocale: "en",
    });
    expect(fresh.version).toBeNull();
  });

  it("loads the saved version from a conflict: it becomes what counts as saved, errors and all cleared", () => {
    let state = editorReducer(start(), { type: "checked", errors: { enTitle: "editor:errors.required" } });
    state = editorReducer(state, { type: "field", name: "enTitle", value: "Mine" });
    const theirs = {
      version: 7,
      updatedAt: "2026-11-25T08:00:00.000Z",
      status: "published" as const,
      values: values({ enTitle: "Theirs" }),
    };
    state = editorReducer(state, { type: "loadTheirs", theirs });
    expect(state.values.enTitle).toBe("Theirs");
    expect(state.initial).toEqual(state.values);
    expect(state.version).toBe(7);
    expect(state.clientErrors).toBeNull();
    expect(state.dismissedConflict).toBe(theirs);
  });

  it("drops an offered draft, remembers when values were kept, and switches tabs", () => {
    let state = editorReducer(start(), { type: "hydrated", zone: "UTC", loaded, offer: draft(5, {}) });
    state = editorReducer(state, { type: "discardOffer" });
    state = editorReducer(state, { type: "kept", at: 1234 });
    state = editorReducer(state, { type: "tab", locale: "zh" });
    expect(state).toMatchObject({ offer: null, keptAt: 1234, active: "zh" });
  });
});
