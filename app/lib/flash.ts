/**
 * One-time messages an action leaves for the next page ("flash"). Only these i18n
 * keys (namespace `common` unless prefixed) can be shown, whatever a cookie says.
 */
export const FLASH_KEYS = [
  "flash.signedIn",
  "flash.signedOut",
  "flash.accountDeleted",
  "flash.saved",
  "flash.deleted",
  "post:flash.commentPosted",
  "post:flash.commentPending",
  "post:flash.commentDeleted",
  "editor:flash.created",
  "editor:flash.saved",
  "editor:flash.pendingSaved",
  "editor:flash.updated",
  "editor:flash.restored",
  "editor:flash.restoredPending",
  "editor:flash.discarded",
  "editor:flash.discardConflict",
  "editor:flash.updateScheduled",
  "media:flash.uploaded",
  "media:flash.invalidFormat",
  "media:flash.tooLarge",
  "media:flash.tooManyPixels",
  "media:flash.failed",
  "media:flash.deleted",
  "adminContent:flash.postsPublished",
  "adminContent:flash.postsUnpublished",
  "adminContent:flash.postsMoved",
  "adminContent:flash.postsTrashed",
  "translations:flash.markedInLine",
] as const;

export type FlashKey = (typeof FLASH_KEYS)[number];

export const FLASH_KINDS = ["success", "info", "error"] as const;

export type FlashKind = (typeof FLASH_KINDS)[number];

export interface FlashMessage {
  kind: FlashKind;
  key: FlashKey;
  /** Distinguishes two equal messages in a row, so each shows once. */
  id: string;
}

export function isFlashKey(value: unknown): value is FlashKey {
  return typeof value === "string" && (FLASH_KEYS as readonly string[]).includes(value);
}

export function isFlashKind(value: unknown): value is FlashKind {
  return typeof value === "string" && (FLASH_KINDS as readonly string[]).includes(value);
}
