import { createContext, useContext } from "react";

const LeanContext = createContext(false);

/** Set by the root layout: true while the server renders a lean document (decision 024). */
export const LeanDocumentProvider = LeanContext.Provider;

/**
 * Whether this render is a lean document: no React will ever run on it in the browser, so a
 * component renders the markup the reader script (app/lean/reader.ts) enhances, and whatever
 * must work without script at all. Always false in the browser.
 */
export function useLeanDocument(): boolean {
  return useContext(LeanContext);
}
