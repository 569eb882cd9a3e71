/**
 * The `code` of every JSON error our own endpoints answer with: lower-case words
 * joined by hyphens, stable for clients (the message beside it may change).
 * better-auth's endpoints keep their own UPPER_SNAKE codes (`TOO_MANY_REQUESTS`,
 * `NAME_TOO_LONG`, …) and `/api/auth/*` answers in its style; message keys shown
 * in pages (`csv.empty`, `post:comments.errors.tooDeep`) are i18n keys, not codes.
 */
export type ErrorCode =
  | "bucket-not-found"
  | "canceled"
  | "cross-origin"
  | "forbidden"
  | "invalid-body"
  | "invalid-format"
  | "invalid-json"
  | "invalid-locale"
  | "invalid-request"
  | "invalid-url"
  | "method-not-allowed"
  | "no-file"
  | "object-not-found"
  | "quota-exceeded"
  | "retry-limit-exceeded"
  | "too-deep"
  | "too-large"
  | "too-long"
  | "too-many-pixels"
  | "too-many-requests"
  | "unauthenticated"
  | "unauthorized"
  | "unavailable"
  | "unknown"
  | "unsupported-media-type";

/** A JSON error body as our endpoints send it. */
export interface ErrorBody {
  code: ErrorCode;
  error: string;
}
