/** A record id as app/server/platform/ids.server.ts makes them: 20 characters of Crockford base32. */
export const RECORD_ID = /^[0-9a-z]{20}$/;

/** Whether a value from a URL or a form can be a record id (anything else needs no query). */
export function isRecordId(value: unknown): value is string {
  return typeof value === "string" && RECORD_ID.test(value);
}
