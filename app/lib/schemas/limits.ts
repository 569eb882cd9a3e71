/**
 * Limits the forms show as attributes (`maxLength`), kept apart from the zod
 * schemas so blog pages can use them without loading zod.
 */
export const COMMENT_MAX_LENGTH = 5000;
export const COMMENT_MAX_LINKS = 3;
export const CONTACT_MESSAGE_MAX = 5000;
