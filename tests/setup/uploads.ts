import { randomBytes } from "node:crypto";
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { addAdmins } from "../../app/server/accounts/admins.server.ts";
import type { DB } from "../../app/server/db/db.server.ts";

export const SESSION_COOKIE = "inkwell.session_token";
const PASSWORD = "correct horse battery";

export interface Part {
  fileName: string;
  data: Buffer;
  contentType?: string;
}

/** A multipart body built by hand, so file names can hold any bytes. */
export function multipart(part: Part): { body: Buffer; contentType: string } {
  const boundary = `----inkwell${randomBytes(8).toString("hex")}`;
  const head = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="`),
    Buffer.from(part.fileName, "utf8"),
    Buffer.from(`"\r\nContent-Type: ${part.contentType ?? "application/octet-stream"}\r\n\r\n`),
  ]);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return { body: Buffer.concat([head, part.data, tail]), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** Every file under a directory (none when it does not exist). */
export function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name));
}

/** A form post to the server, from its own origin. */
export function postForm(baseUrl: string, pathname: string, fields: Record<string, string>): Promise<Response> {
  return fetch(`${baseUrl}${pathname}`, {
    method: "POST",
    redirect: "manual",
    headers: { origin: baseUrl, "content-type": "application/x-www-form-urlencoded", cookie: "locale=en" },
    body: new URLSearchParams(fields).toString(),
  });
}

/**
 * Registers a new account through the server's forms, verifies it in the
 * database, optionally lists it as an admin, and signs it in: its e-mail and
 * the session cookie ("name=value").
 */
export async function signedInAccount(
  baseUrl: string,
  db: DB,
  name: string,
  { admin = false } = {},
): Promise<{ email: string; cookie: string }> {
  const email = `${name}-${randomBytes(4).toString("hex")}@example.test`;
  const registered = await postForm(baseUrl, "/register", { name, email, password: PASSWORD });
  await registered.arrayBuffer();
  if (registered.status !== 200) throw new Error(`registering ${email} answered ${registered.status}`);
  await db.updateTable("users").set({ emailVerified: 1 }).where("email", "=", email).execute();
  if (admin) await addAdmins(db, [email], "cli");
  const signedIn = await postForm(baseUrl, "/login", { email, password: PASSWORD });
  await signedIn.arrayBuffer();
  const cookie = signedIn.headers
    .getSetCookie()
    .map((c) => c.split(";")[0] ?? "")
    .find((pair) => pair.startsWith(`${SESSION_COOKIE}=`));
  if (!cookie) throw new Error(`no session cookie for ${email}`);
  return { email, cookie };
}

/** POSTs one file to /api/uploads. */
export function uploadFile(baseUrl: string, part: Part, headers: Record<string, string> = {}): Promise<Response> {
  const { body, contentType } = multipart(part);
  return fetch(`${baseUrl}/api/uploads`, {
    method: "POST",
    redirect: "manual",
    headers: { origin: baseUrl, "content-type": contentType, ...headers },
    body: new Uint8Array(body),
  });
}
