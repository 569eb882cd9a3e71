import { createContext, useContext, useState } from "react";
import { SanitizedHtml } from "./ui/sanitized-html.tsx";

/**
 * Large HTML a document request renders once, without repeating it in the hydration
 * data. A loader answering a document request puts the HTML here (server side, per
 * request) and sends `null` in its data; the server render reads it from this context,
 * and the browser, hydrating, reads it back from the element the server rendered.
 * Data requests (client-side navigations, revalidations) carry the HTML as usual.
 */
const DocumentPartsContext = createContext<ReadonlyMap<string, string> | undefined>(undefined);

export const DocumentPartsProvider = DocumentPartsContext.Provider;

/**
 * Sanitized HTML (see SanitizedHtml) that may come as `null` on a document request:
 * then it is this request's document part `id` on the server, and the server-rendered
 * element's content when the browser hydrates. `id` is also the element's id.
 */
export function DocumentHtml({ id, html, className }: { id: string; html: string | null; className?: string }) {
  const parts = useContext(DocumentPartsContext);
  // Read once, at hydration: after that, navigations bring their HTML in their data.
  const [rendered] = useState(() =>
    html === null && typeof document !== "undefined" ? (document.getElementById(id)?.innerHTML ?? "") : "",
  );
  return <SanitizedHtml id={id} className={className} html={html ?? parts?.get(id) ?? rendered} />;
}
