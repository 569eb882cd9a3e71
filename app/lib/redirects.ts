import { z } from "zod";

// What a redirect's from-path and target may be, shared by the admin form (browser and
// action), the CSV import and the HTTP step: one normalisation, so a path saved here is the
// path a request is looked up by. Rules and reasons: docs/decisions/012-redirects.md.

/** Longest from-path or target accepted. */
export const REDIRECT_MAX_LENGTH = 2000;

/** Rows one CSV import may hold. */
export const REDIRECT_IMPORT_MAX_ROWS = 20_000;

export const REDIRECT_STATUSES = [301, 302] as const;
export type RedirectStatus = (typeof REDIRECT_STATUSES)[number];

/** A from-path as stored and looked up: the normalised path, and the query exactly as written ("" for none). */
export interface RedirectKey {
  path: string;
  query: string;
}

export type FromResult = ({ ok: true } & RedirectKey) | { ok: false; error: "fromInvalid" };

/** Characters a path never holds raw: controls, spaces, a backslash (some browsers read it as a slash). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this refuses
const UNSAFE = /[\u0000-\u0020\u007f\\]/;

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * The path part normalised: percent-escapes decoded (a Chinese slug written either way is one
 * path), lower case, repeated slashes collapsed, no trailing slash (except "/" itself). Null for
 * something that is no plain path (dot segments, a decoded / ? or #, control characters).
 */
export function normalizePath(raw: string): string | null {
  if (!raw.startsWith("/")) return null;
  const segments = raw.split("/").filter((s) => s !== "");
  const out: string[] = [];
  for (const segment of segments) {
    const decoded = decodeSegment(segment);
    if (decoded === "." || decoded === ".." || /[/?#]/.test(decoded) || UNSAFE.test(decoded)) return null;
    out.push(decoded.toLowerCase());
  }
  return `/${out.join("/")}`;
}

/** Splits "path?query#fragment" (the fragment never reaches a server: dropped). */
function splitTarget(value: string): { path: string; query: string } {
  const noFragment = value.split("#", 1)[0] ?? "";
  const q = noFragment.indexOf("?");
  return q < 0 ? { path: noFragment, query: "" } : { path: noFragment.slice(0, q), query: noFragment.slice(q + 1) };
}

/**
 * A from-path as the admin, a CSV or an importer gives it: "/old/", "old-page", "/?p=123", or a
 * whole http(s) URL of the old site (its host is dropped). The query is kept exactly as written.
 */
export function normalizeFrom(input: string): FromResult {
  let value = input.trim();
  if (value === "" || value.length > REDIRECT_MAX_LENGTH) return { ok: false, error: "fromInvalid" };
  if (/^https?:\/\//i.test(value)) {
    try {
      const url = new URL(value);
      value = `${url.pathname}${url.search}`;
    } catch {
      return { ok: false, error: "fromInvalid" };
    }
  } else if (value.startsWith("//") || /^[a-z][a-z0-9+.-]*:/i.test(value)) {
    return { ok: false, error: "fromInvalid" };
  } else if (!value.startsWith("/")) {
    value = `/${value}`;
  }
  const { path: rawPath, query } = splitTarget(value);
  if (UNSAFE.test(query)) return { ok: false, error: "fromInvalid" };
  const path = normalizePath(rawPath);
  if (path === null) return { ok: false, error: "fromInvalid" };
  // Whether the site answers this path itself needs the route table and the database: every
  // writer asks the server (redirects/reserved.server.ts) when it saves.
  return { ok: true, path, query };
}

/** The stored form of a from-path: "/old" or "/?p=123". */
export function fromKey(key: RedirectKey): string {
  return key.query ? `${key.path}?${key.query}` : key.path;
}

export type TargetResult = { ok: true; target: string } | { ok: false; error: "toInvalid" | "toExternal" };

/** A target on this site: "/path", with an optional query and fragment; never "//host" or "/\host". */
export function isSitePath(value: string): boolean {
  if (!value.startsWith("/") || value.startsWith("//") || UNSAFE.test(value)) return false;
  try {
    // Resolved against a placeholder origin, a site path stays on it.
    return new URL(value, "http://inkwell.invalid").origin === "http://inkwell.invalid";
  } catch {
    return false;
  }
}

/** An https:// URL with a host and no credentials: the only external target, and only when the row allows one. */
export function isExternalHttpsUrl(value: string): boolean {
  if (UNSAFE.test(value)) return false;
  try {
    const url = new URL(value);
    return url.protocol === "https:" && url.hostname !== "" && url.username === "" && url.password === "";
  } catch {
    return false;
  }
}

/** Checks a target: a site path, or (only with `external`) an https:// URL. */
export function checkTarget(input: string, external: boolean): TargetResult {
  const target = input.trim();
  if (target === "" || target.length > REDIRECT_MAX_LENGTH) return { ok: false, error: "toInvalid" };
  if (isSitePath(target)) return { ok: true, target };
  if (/^https?:\/\//i.test(target) || target.startsWith("//")) {
    if (external && isExternalHttpsUrl(target)) return { ok: true, target };
    return { ok: false, error: external ? "toInvalid" : "toExternal" };
  }
  return { ok: false, error: "toInvalid" };
}

/** The key a site-path target would be looked up by (null for an external target or no plain path). */
export function targetKey(target: string): RedirectKey | null {
  if (!isSitePath(target)) return null;
  const { path: rawPath, query } = splitTarget(target);
  const path = normalizePath(rawPath);
  return path === null ? null : { path, query };
}

/**
 * Where a request is sent: the row's target, with the request's query added when the
 * from-path has none and the target has none of its own (`/old?utm=x` → `/new?utm=x`).
 */
export function locationFor(rule: { fromQuery: string; to: string }, requestQuery: string): string {
  if (rule.fromQuery !== "" || requestQuery === "") return rule.to;
  const hash = rule.to.indexOf("#");
  const base = hash < 0 ? rule.to : rule.to.slice(0, hash);
  if (base.includes("?")) return rule.to;
  return `${base}?${requestQuery}${hash < 0 ? "" : rule.to.slice(hash)}`;
}

const statusSchema = z.enum(["301", "302"], { error: "adminLinks:redirects.errors.status" });

/** The admin form, in the browser and in the action (the loop check needs the database: the action adds it). */
export const redirectSchema = z
  .object({
    from: z
      .string({ error: "adminLinks:redirects.errors.fromRequired" })
      .trim()
      .min(1, "adminLinks:redirects.errors.fromRequired"),
    to: z
      .string({ error: "adminLinks:redirects.errors.toRequired" })
      .trim()
      .min(1, "adminLinks:redirects.errors.toRequired"),
    status: statusSchema.default("301"),
    external: z.string().optional(),
    note: z.string().trim().max(200, "adminLinks:redirects.errors.noteTooLong").default(""),
  })
  .superRefine((v, ctx) => {
    const from = normalizeFrom(v.from);
    if (!from.ok)
      ctx.addIssue({ code: "custom", path: ["from"], message: `adminLinks:redirects.errors.${from.error}` });
    const to = checkTarget(v.to, v.external === "on");
    if (!to.ok) ctx.addIssue({ code: "custom", path: ["to"], message: `adminLinks:redirects.errors.${to.error}` });
    if (from.ok && to.ok) {
      const key = targetKey(to.target);
      if (key && key.path === from.path && (from.query === "" || key.query === from.query)) {
        ctx.addIssue({ code: "custom", path: ["to"], message: "adminLinks:redirects.errors.self" });
      }
    }
  });
