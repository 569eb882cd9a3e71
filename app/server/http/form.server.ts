import { data } from "react-router";

/** The bodies an HTML form sends (and React Router's fetchers): anything else is not a form. */
const FORM_TYPES = new Set(["application/x-www-form-urlencoded", "multipart/form-data"]);

/** The media type of a Content-Type header, lower-cased, without its parameters. */
function mediaTypeOf(contentType: string): string {
  return (contentType.split(";", 1)[0] ?? "").trim().toLowerCase();
}

export interface ReadFormOptions {
  /**
   * Read a body that is not a form as an empty form instead of refusing it: for an action
   * that takes what it needs from the query too (a one-click unsubscribe from a mail client).
   */
  emptyIfNotForm?: boolean;
}

/**
 * The one place actions read their form. `request.formData()` rejects with a TypeError on a
 * body that is JSON, plain text, or multipart with a missing or broken boundary, and an
 * action that let it through answered 500. Here: 415 for a body that is not a form, 400 for
 * a form that cannot be read (a body cut off at the size limit is answered 413 by the
 * render step, which sees the cut).
 */
export async function readForm(request: Request, options: ReadFormOptions = {}): Promise<FormData> {
  const type = mediaTypeOf(request.headers.get("content-type") ?? "");
  if (!FORM_TYPES.has(type)) {
    if (options.emptyIfNotForm) return new FormData();
    throw data(null, { status: 415, headers: { "Cache-Control": "no-store" } });
  }
  try {
    return await request.formData();
  } catch {
    if (options.emptyIfNotForm) return new FormData();
    throw data(null, { status: 400, headers: { "Cache-Control": "no-store" } });
  }
}
