import { readFileSync } from "node:fs";
import path from "node:path";
import type { RouteConfigEntry } from "@react-router/dev/routes";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import routes from "../../app/routes.ts";
import { type Site, startSite } from "../setup/site.ts";
import { testDialect } from "../setup/test-db.ts";
import { signedInAccount } from "../setup/uploads.ts";

// Hardening round 3 (issue 45), finding 5: a same-origin POST whose body was JSON, plain
// text or multipart with a broken boundary made `request.formData()` throw, and the action
// answered 500. Every route with an action, taken from the route table, gets bodies that
// are not forms or not readable ones, from a visitor and from an admin: none answers 5xx.

const APP = path.resolve(import.meta.dirname, "../../app");

/** How a route module says it has an action. */
const ACTION_EXPORT = /^export (?:async function|function|const|let) action\b/m;
/** Any other way of exporting one (a re-export): the walk would miss it, so the test refuses it. */
const OTHER_ACTION_EXPORT = /export\s*\{[^}]*\baction\b[^}]*\}/;

/** A path React Router matches for `pattern`, its params filled with values that name nothing. */
function concrete(pattern: string): string {
  const filled = pattern
    .split("/")
    .filter((segment) => !segment.endsWith("?"))
    .map((segment) => (segment === "*" ? "x" : segment.replace(/^:.+$/, "no-such-id")))
    .join("/");
  return `/${filled}`;
}

/** One path for each route file that has an action (its language-prefixed twins run the same code). */
function actionRoutes(entries: readonly RouteConfigEntry[], parent = "", seen = new Set<string>()): string[] {
  const out: string[] = [];
  for (const entry of entries) {
    const own = entry.index ? parent : [parent, entry.path ?? ""].filter(Boolean).join("/");
    const source = readFileSync(path.join(APP, entry.file), "utf8");
    if (OTHER_ACTION_EXPORT.test(source)) throw new Error(`${entry.file} exports its action in a way this walk misses`);
    if (ACTION_EXPORT.test(source) && !seen.has(entry.file)) {
      seen.add(entry.file);
      out.push(concrete(own));
    }
    if (entry.children) out.push(...actionRoutes(entry.children, own, seen));
  }
  return out;
}

interface Body {
  name: string;
  contentType: string | null;
  body: string;
}

/** Bodies a form action cannot read as a form. */
const BODIES: Body[] = [
  { name: "JSON", contentType: "application/json", body: '{"email":"a@example.test","token":"x","intent":"delete"}' },
  { name: "plain text", contentType: "text/plain;charset=UTF-8", body: "email=a@example.test&token=x" },
  {
    name: "multipart, another boundary",
    contentType: "multipart/form-data; boundary=expected",
    body: '--actual\r\nContent-Disposition: form-data; name="email"\r\n\r\na@example.test\r\n--actual--\r\n',
  },
  {
    name: "multipart, cut off",
    contentType: "multipart/form-data; boundary=b",
    body: '--b\r\nContent-Disposition: form-data; name="email"\r\n\r\na@exam',
  },
  {
    name: "multipart, no boundary",
    contentType: "multipart/form-data",
    body: '--b\r\nContent-Disposition: form-data; name="email"\r\n\r\nx\r\n--b--\r\n',
  },
  { name: "urlencoded garbage", contentType: "application/x-www-form-urlencoded", body: "%%=&%zz%E0%A4=%FF&=&&a=%" },
  { name: "no content type", contentType: null, body: "{}" },
];

describe(`bodies that are not forms, posted to every action (${testDialect()})`, () => {
  let site: Site;
  let adminCookie = "";
  const paths = actionRoutes(routes);

  beforeAll(async () => {
    site = await startSite({ LOG_LEVEL: "fatal", RENDER_CACHE: "false", RATE_LIMIT_MULTIPLIER: "1000" });
    adminCookie = (await signedInAccount(site.server.url, site.db, "forms", { admin: true })).cookie;
  });

  afterAll(async () => {
    await site?.stop();
  });

  async function send(target: string, body: Body, cookie: string): Promise<number> {
    const headers: Record<string, string> = { origin: site.server.url };
    if (body.contentType) headers["content-type"] = body.contentType;
    if (cookie) headers.cookie = cookie;
    const res = await fetch(`${site.server.url}${target}`, {
      method: "POST",
      redirect: "manual",
      headers,
      body: new TextEncoder().encode(body.body),
    });
    await res.arrayBuffer();
    return res.status;
  }

  it("finds the actions in the route table", () => {
    for (const known of ["/login", "/contact", "/subscribe", "/subscribe/confirm", "/admin/users", "/api/uploads"]) {
      expect(paths).toContain(known);
    }
    // /unsubscribe shares its module with /subscribe/confirm.
    expect(paths.length).toBeGreaterThanOrEqual(35);
  });

  it("refuses them on the public forms with 400 or 415", async () => {
    for (const target of ["/unsubscribe", "/subscribe", "/subscribe/confirm", "/contact", "/login", "/register"]) {
      for (const body of BODIES.filter((b) => b.name !== "urlencoded garbage")) {
        expect([400, 415], `${body.name} to ${target}`).toContain(await send(target, body, ""));
      }
    }
    // The page says what went wrong, in the reader's language, and does not blame the server.
    for (const [locale, words] of [
      ["en", "Bad request"],
      ["zh", "请求无效"],
    ] as const) {
      const res = await fetch(`${site.server.url}/contact`, {
        method: "POST",
        headers: { origin: site.server.url, "content-type": "application/json", cookie: `locale=${locale}` },
        body: "{}",
      });
      const html = await res.text();
      expect(res.status).toBe(415);
      expect(html).toContain(words);
      expect(html).not.toMatch(/Internal server error|服务器内部错误/);
    }
    // And on the admin's, once the admin is let in.
    for (const target of ["/admin/users", "/admin/config", "/admin/blog", "/admin/import", "/admin/comments"]) {
      expect(await send(target, BODIES[0] as Body, adminCookie), target).toBe(415);
      expect(await send(target, BODIES[2] as Body, adminCookie), target).toBe(400);
    }
  });

  it("answers none of them with a 5xx, from a visitor or an admin, as a page or a data request", async () => {
    const failures: string[] = [];
    // Signing out last: the admin's session serves every other route first.
    const ordered = [...paths].sort((a, b) => Number(a === "/logout") - Number(b === "/logout"));
    for (const who of ["visitor", "admin"] as const) {
      for (const route of ordered) {
        // A route's bodies all at once (a route at a time, so /logout still comes last):
        // the server reads them side by side as it would from as many clients.
        const sends = [route, `${route === "/" ? "/_root" : route}.data`].flatMap((target) =>
          BODIES.map(async (body) => {
            const status = await send(target, body, who === "admin" ? adminCookie : "");
            if (status >= 500) failures.push(`${who}: ${body.name} to ${target} → ${status}`);
          }),
        );
        await Promise.all(sends);
      }
    }
    expect(failures).toEqual([]);
    // A ceiling: about 1,200 requests, which a machine busy with the browser suite serves slowly.
  }, 300_000);
});
