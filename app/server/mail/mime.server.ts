import { randomBytes } from "node:crypto";

// A mail to many readers that differs only in a few links (a newsletter) is built
// here as bytes: the shared parts are encoded once per send, and each reader's mail is
// those buffers with their own links between them. Building each one through
// nodemailer's composer made a fresh copy of the whole HTML, its encoding and a stream
// pipeline per reader; the copies outlived the young generation while the SMTP round
// trips ran, so the heap grew by tens of MiB over a 10,000-reader send (issue 20).

const CRLF = Buffer.from("\r\n");
const SOFT_BREAK = Buffer.from("=\r\n");
/** Longest encoded line before the soft break's "=" (RFC 2045 §6.7: 76 with it). */
const QP_LINE = 75;
const HEX = "0123456789ABCDEF";

/**
 * Quoted-printable (RFC 2045 §6.7) of `text` as UTF-8, lines ending CRLF. With
 * `open`, the result ends in a soft line break, so another encoded piece can follow
 * it and the decoder joins them with nothing in between.
 */
export function quotedPrintable(text: string, open = false): Buffer {
  const bytes = Buffer.from(text.replace(/\r\n?/g, "\n"), "utf8");
  const out: number[] = [];
  let column = 0;
  const push = (token: number[]) => {
    if (column + token.length > QP_LINE) {
      out.push(0x3d, 0x0d, 0x0a);
      column = 0;
    }
    out.push(...token);
    column += token.length;
  };
  for (let i = 0; i < bytes.length; i += 1) {
    const byte = bytes[i] as number;
    if (byte === 0x0a) {
      out.push(0x0d, 0x0a);
      column = 0;
      continue;
    }
    const next = bytes[i + 1];
    // A space or tab at a line's end would be dropped by transports: encode it.
    const atLineEnd = next === 0x0a || (next === undefined && !open);
    const literal = (byte >= 0x21 && byte <= 0x7e && byte !== 0x3d) || ((byte === 0x20 || byte === 0x09) && !atLineEnd);
    push(literal ? [byte] : [0x3d, HEX.charCodeAt(byte >> 4), HEX.charCodeAt(byte & 15)]);
  }
  const encoded = Buffer.from(out);
  if (!open) return encoded;
  return encoded.length === 0 ? encoded : Buffer.concat([encoded, SOFT_BREAK]);
}

/** A header value as RFC 2047 encoded words when it is not plain ASCII, folded at 78. */
export function headerValue(value: string): string {
  const clean = value.replace(/[\r\n]+/g, " ");
  if (/^[\x20-\x7e]*$/.test(clean)) return clean;
  const words: string[] = [];
  let chunk = "";
  for (const char of clean) {
    // 45 bytes of UTF-8 make 60 characters of base64: each word stays under 75.
    if (Buffer.byteLength(chunk + char) > 45) {
      words.push(chunk);
      chunk = "";
    }
    chunk += char;
  }
  if (chunk) words.push(chunk);
  return words.map((w) => `=?UTF-8?B?${Buffer.from(w).toString("base64")}?=`).join("\r\n ");
}

/** `Name <box@host>` or `box@host`, as a From/To header value. */
export function addressHeader(mailbox: string): string {
  const match = /^\s*(.*?)\s*<([^<>\s]+)>\s*$/.exec(mailbox);
  if (!match) return mailbox.trim();
  const [, rawName = "", address = ""] = match;
  const name = rawName.replace(/^"(.*)"$/, "$1").trim();
  if (!name) return address;
  const shown = /^[\x20-\x7e]*$/.test(name) ? `"${name.replace(/(["\\])/g, "\\$1")}"` : headerValue(name);
  return `${shown} <${address}>`;
}

/** The address alone of `Name <box@host>`. */
export function mailboxAddress(mailbox: string): string {
  return /<([^<>\s]+)>\s*$/.exec(mailbox)?.[1] ?? mailbox.trim();
}

/** A body shared by many mails, with named gaps filled per mail. */
export interface MailTemplatePart {
  /** Encoded pieces between the gaps, in order (one more than the gaps). */
  pieces: Buffer[];
  /** The gap names, in order of appearance. */
  gaps: string[];
}

/**
 * Encodes `body` once as quoted-printable pieces around each occurrence of the
 * given placeholders.
 */
export function templatePart(body: string, placeholders: readonly string[]): MailTemplatePart {
  const escaped = placeholders.map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  const split = escaped.length ? body.split(new RegExp(`(${escaped.join("|")})`)) : [body];
  const pieces: Buffer[] = [];
  const gaps: string[] = [];
  split.forEach((piece, i) => {
    if (i % 2 === 1) gaps.push(piece);
    else pieces.push(quotedPrintable(piece, i < split.length - 1));
  });
  return { pieces, gaps };
}

function fillPart(part: MailTemplatePart, values: Readonly<Record<string, string>>): Buffer[] {
  const out: Buffer[] = [];
  part.pieces.forEach((piece, i) => {
    out.push(piece);
    const gap = part.gaps[i];
    if (gap !== undefined) out.push(quotedPrintable(values[gap] ?? "", true));
  });
  return out;
}

export interface MailTemplate {
  /** Headers every copy shares (From, Subject, MIME-Version, Content-Type), CRLF-terminated. */
  head: Buffer;
  boundary: string;
  text: MailTemplatePart;
  html: MailTemplatePart | null;
  /** The host for Message-IDs. */
  idHost: string;
  /** The subject as given (for logs). */
  subject: string;
  /** The boundary and headers before each part, and the closing boundary. */
  openText: Buffer;
  openHtml: Buffer;
  close: Buffer;
}

/** A multipart/alternative (or plain text) mail whose parts are encoded once. */
export function mailTemplate(opts: {
  from: string;
  subject: string;
  text: string;
  html?: string | null;
  placeholders: readonly string[];
}): MailTemplate {
  const boundary = `--_inkwell_${randomBytes(12).toString("hex")}`;
  const html = opts.html ? templatePart(opts.html, opts.placeholders) : null;
  const head = [
    `From: ${addressHeader(opts.from)}`,
    `Subject: ${headerValue(opts.subject)}`,
    "MIME-Version: 1.0",
    html
      ? `Content-Type: multipart/alternative;\r\n boundary="${boundary}"`
      : "Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable",
  ];
  return {
    head: Buffer.from(`${head.join("\r\n")}\r\n`),
    boundary,
    text: templatePart(opts.text, opts.placeholders),
    html,
    idHost: mailboxAddress(opts.from).split("@")[1] ?? "localhost",
    subject: opts.subject,
    openText: partHeader(boundary, "text/plain"),
    openHtml: partHeader(boundary, "text/html"),
    close: Buffer.from(`--${boundary}--\r\n`),
  };
}

/** Each gap's value in the text part and in the HTML part (already escaped for HTML). */
export interface TemplateValues {
  text: Readonly<Record<string, string>>;
  html: Readonly<Record<string, string>>;
}

/**
 * One copy of a template: its own recipient, extra headers and gap values, as the
 * message's pieces in order. The shared pieces are not copied: send them as a stream.
 */
export function fillTemplate(
  template: MailTemplate,
  to: string,
  values: TemplateValues,
  headers: Readonly<Record<string, string>> = {},
  now = new Date(),
): Buffer[] {
  const lines = [
    `To: ${addressHeader(to)}`,
    `Date: ${now.toUTCString().replace("GMT", "+0000")}`,
    `Message-ID: <${randomBytes(12).toString("hex")}@${template.idHost}>`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${foldList(headerValue(value))}`),
  ];
  const head = Buffer.from(`${lines.join("\r\n")}\r\n`);
  const textPart = fillPart(template.text, values.text);
  if (!template.html) return [head, template.head, CRLF, ...textPart, CRLF];
  return [
    head,
    template.head,
    CRLF,
    template.openText,
    ...textPart,
    CRLF,
    template.openHtml,
    ...fillPart(template.html, values.html),
    CRLF,
    template.close,
  ];
}

function partHeader(boundary: string, type: string): Buffer {
  return Buffer.from(
    `--${boundary}\r\nContent-Type: ${type}; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n`,
  );
}

/** Folds a comma-separated header value (List-Unsubscribe's URLs) after its commas. */
function foldList(value: string): string {
  return value.length > 76 && !value.includes("=?") ? value.replace(/,\s*/g, ",\r\n ") : value;
}
