import type { ErrorBody, ErrorCode } from "../../lib/error-codes.ts";

/** A JSON error our endpoints answer with: `{code, error}`, never stored by a cache. */
export function jsonError(
  status: number,
  code: ErrorCode,
  error: string,
  headers: Record<string, string> = {},
): Response {
  return Response.json({ code, error } satisfies ErrorBody, {
    status,
    headers: { "Cache-Control": "no-store", ...headers },
  });
}
