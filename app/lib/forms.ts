import type { z } from "zod";

/** Field name → i18n key of the message (e.g. `auth:errors.emailInvalid`). */
export type FieldErrors = Record<string, string>;

export type Validated<T> = { ok: true; data: T } | { ok: false; errors: FieldErrors };

function toObject(input: FormData | Record<string, unknown>): Record<string, unknown> {
  if (!(input instanceof FormData)) return input;
  const out: Record<string, unknown> = {};
  for (const [key, value] of input) {
    if (key in out) continue; // first value wins: no array smuggling
    out[key] = typeof value === "string" ? value : "";
  }
  return out;
}

/**
 * Validates with a zod schema whose messages are i18n keys: the same call runs
 * in the browser before submitting and in the action.
 */
export function validate<S extends z.ZodType>(
  schema: S,
  input: FormData | Record<string, unknown>,
): Validated<z.infer<S>> {
  const result = schema.safeParse(toObject(input));
  if (result.success) return { ok: true, data: result.data };
  const errors: FieldErrors = {};
  for (const issue of result.error.issues) {
    const field = String(issue.path[0] ?? "form");
    if (!(field in errors)) errors[field] = issue.message;
  }
  return { ok: false, errors };
}
