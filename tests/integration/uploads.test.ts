// Long on purpose: every upload case (formats, hostile files, limits, variants, S3)
// runs against the same started server, which is the slow part to repeat.
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DB, openDatabase } from "../../app/server/db/db.server.ts";
import { parseDatabaseUrl } from "../../app/server/platform/env.server.ts";
import { claimedSizePng, ENTITY_SVG, HOSTILE_SVG, htmlJpegPolyglot, jpeg, png } from "../fixtures/images.ts";
import { startTestS3, type TestS3 } from "../setup/s3rver.ts";
import { type ServerProcess, startServer, tempDataDir } from "../setup/server-process.ts";
import { createServerDatabaseUrl, testDialect } from "../setup/test-db.ts";
import {
  filesUnder,
  multipart,
  type Part,
  postForm as postFormTo,
  signedInAccount,
  uploadFile,
} from "../setup/uploads.ts";

// POST /api/uploads, GET /media/… and GET /api/files/{id} against the production
// server: who may upload, what is accepted, what is stored, and that a refused
// upload leaves no row and no file.

const LIMIT = 512 * 1024;

interface Reply {
  status: number;
  headers: Headers;
  json: Record<string, unknown>;
}

describe(`uploads (${testDialect()})`, () => {
  let server: ServerProcess;
  let db: DB;
  let dataDir: string;
  let database: Awaited<ReturnType<typeof createServerDatabaseUrl>>;
  let adminCookie: string;
  let readerCookie: string;

  async function upload(part: Part, opts: { cookie?: string; origin?: string; accept?: string } = {}): Promise<Reply> {
    const { body, contentType } = multipart(part);
    const res = await fetch(`${server.url}/api/uploads`, {
      method: "POST",
      redirect: "manual",
      headers: {
        origin: opts.origin ?? server.url,
        "content-type": contentType,
        ...(opts.cookie ? { cookie: opts.cookie } : {}),
        ...(opts.accept ? { accept: opts.accept } : {}),
      },
      body: new Uint8Array(body),
    });
    const text = await res.text();
    let json: Record<string, unknown> = {};
    try {
      json = JSON.parse(text) as Record<string, unknown>;
    } catch {
      json = { raw: text };
    }
    return { status: res.status, headers: res.headers, json };
  }

  const _postForm = async (pathname: string, fields: Record<string, string>) => {
    const res = await postFormTo(server.url, pathname, fields);
    await res.arrayBuffer();
    return res;
  };
  const session = (name: string) => signedInAccount(server.url, db, name);

  const mediaCount = async () =>
    Number(
      (
        await db
          .selectFrom("media")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const uploads = () => path.join(dataDir, "uploads");

  beforeAll(async () => {
    dataDir = tempDataDir();
    database = await createServerDatabaseUrl(dataDir);
    server = await startServer({
      DATA_DIR: dataDir,
      DATABASE_URL: database.url,
      LOG_REQUESTS: "false",
      LOG_LEVEL: "error",
      UPLOAD_MAX_BYTES: String(LIMIT),
      RATE_LIMIT_MULTIPLIER: "20",
    });
    db = openDatabase(parseDatabaseUrl(database.url, dataDir), { poolMax: 2 }).db;
    adminCookie = (await signedInAccount(server.url, db, "upload-admin", { admin: true })).cookie;
    readerCookie = (await session("upload-reader")).cookie;
  });

  afterAll(async () => {
    await server?.stop("SIGKILL");
    await db?.destroy();
    await database?.cleanup();
  });

  it("refuses visitors (401), readers (403) and other sites (403), storing nothing", async () => {
    const file = { fileName: "a.jpg", data: await jpeg(64, 64) };
    expect((await upload(file)).json).toMatchObject({ code: "unauthenticated" });
    const reader = await upload(file, { cookie: readerCookie });
    expect(reader.status).toBe(403);
    expect(reader.json).toMatchObject({ code: "unauthorized" });
    const crossSite = await upload(file, { cookie: adminCookie, origin: "https://evil.example" });
    expect(crossSite.status).toBe(403);
    expect(await mediaCount()).toBe(0);
    expect(filesUnder(uploads())).toEqual([]);
  });

  it("stores an admin's JPEG re-encoded, with variants, metadata and immutable caching", async () => {
    const res = await upload(
      { fileName: "Holiday photo.JPG", data: await jpeg(900, 600, { gps: true }), contentType: "text/html" },
      { cookie: adminCookie },
    );
    expect(res.status).toBe(201);
    const media = res.json.media as Record<string, unknown>;
    expect(media).toMatchObject({
      originalName: "Holiday photo.JPG",
      contentType: "image/jpeg",
      width: 900,
      height: 600,
      bucket: "local",
      metageneration: 1,
      cacheControl: "public, max-age=31536000, immutable",
    });
    const id = String(media.id);
    expect(media.url).toBe(`/media/${id}/image.jpg`);
    expect(media.srcSet).toBe(`/media/${id}/320.webp 320w, /media/${id}/640.webp 640w, /media/${id}/900.webp 900w`);
    for (const field of ["name", "fullPath", "size", "md5Hash", "generation", "timeCreated", "updated"]) {
      expect(media[field], field).toBeTruthy();
    }

    const file = await fetch(`${server.url}/media/${id}/image.jpg`);
    const bytes = Buffer.from(await file.arrayBuffer());
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("image/jpeg");
    expect(file.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(file.headers.get("x-content-type-options")).toBe("nosniff");
    expect(bytes.length).toBe(media.size);
    expect(bytes.includes("GPS")).toBe(false);
    const again = await fetch(`${server.url}/media/${id}/image.jpg`, {
      headers: { "if-none-match": file.headers.get("etag") ?? "" },
    });
    await again.arrayBuffer();
    expect(again.status).toBe(304);
    const variant = await fetch(`${server.url}/media/${id}/640.webp`);
    await variant.arrayBuffer();
    expect(variant.headers.get("content-type")).toBe("image/webp");

    const info = await fetch(`${server.url}/api/files/${id}`, { headers: { cookie: adminCookie } });
    const body = (await info.json()) as { media: Record<string, unknown>; usages: unknown[] };
    expect(info.status).toBe(200);
    expect(body.media).toMatchObject({ id, md5Hash: media.md5Hash });
    expect(body.usages).toEqual([]);
    const asReader = await fetch(`${server.url}/api/files/${id}`, { headers: { cookie: readerCookie } });
    await asReader.arrayBuffer();
    expect(asReader.status).toBe(403);
  });

  it("answers 404 for media names that are not ours, without touching the disk outside uploads", async () => {
    for (const bad of ["/media/../inkwell.db", "/media/%2e%2e/inkwell.db", "/media/abc/x.jpg", "/media/x"]) {
      const res = await fetch(`${server.url}${bad}`);
      await res.arrayBuffer();
      expect(res.status, bad).toBe(404);
    }
  });

  it("refuses hostile names and contents with 415, storing nothing", async () => {
    const before = await mediaCount();
    const files = filesUnder(uploads()).length;
    const image = await png(32, 32);
    const cases: Part[] = [
      { fileName: "../../x", data: image },
      { fileName: "..\\x", data: image },
      { fileName: "%2e%2e%2f", data: image },
      { fileName: "page.html", data: Buffer.from("<html><script>alert(1)</script></html>") },
      { fileName: "fake.png", data: Buffer.from("<html><script>alert(1)</script></html>") },
      { fileName: "photo.png", data: await jpeg(32, 32) },
      { fileName: "bomb.svg", data: ENTITY_SVG },
    ];
    for (const part of cases) {
      const res = await upload(part, { cookie: adminCookie });
      expect(res.status, JSON.stringify(part.fileName)).toBe(415);
      expect(res.json.code).toBe("invalid-format");
    }
    // A NUL in the part's header is not even valid multipart.
    const nul = await upload({ fileName: "a.png\0.html", data: image }, { cookie: adminCookie });
    expect(nul.status).toBe(400);
    expect(nul.json.code).toBe("invalid-request");
    expect(await mediaCount()).toBe(before);
    expect(filesUnder(uploads()).length).toBe(files);
  });

  it("keeps a path-like or very long name only as metadata", async () => {
    const traversal = await upload({ fileName: "../../evil.png", data: await png(16, 16) }, { cookie: adminCookie });
    expect(traversal.status).toBe(201);
    expect((traversal.json.media as { originalName: string }).originalName).toBe("evil.png");
    expect(existsSync(path.join(dataDir, "evil.png"))).toBe(false);
    expect(existsSync(path.resolve(dataDir, "..", "evil.png"))).toBe(false);

    const long = `${"a".repeat(296)}.png`;
    const res = await upload({ fileName: long, data: await png(16, 16) }, { cookie: adminCookie });
    expect(res.status).toBe(201);
    const media = res.json.media as { originalName: string; name: string };
    expect(media.originalName.length).toBeLessThanOrEqual(200);
    expect(media.name).toMatch(/^[0-9a-z]{20}\/image\.png$/);
    for (const file of filesUnder(dataDir)) {
      expect(file.includes("evil") || file.includes("aaaa"), file).toBe(false);
    }
  });

  it("stores an SVG only as a PNG with nothing of its script, and a polyglot only as its image", async () => {
    for (const part of [
      { fileName: "logo.svg", data: HOSTILE_SVG },
      { fileName: "cat.jpg", data: await htmlJpegPolyglot() },
    ]) {
      const res = await upload(part, { cookie: adminCookie });
      expect(res.status, part.fileName).toBe(201);
      const id = String((res.json.media as { id: string }).id);
      const stored = filesUnder(path.join(uploads(), id));
      expect(stored.length).toBeGreaterThan(1);
      for (const file of stored) {
        const bytes = readFileSync(file);
        expect(bytes.includes("<script"), file).toBe(false);
        expect(bytes.includes("<svg"), file).toBe(false);
      }
    }
  });

  it("refuses a 50000 × 50000 image with 422", async () => {
    const before = await mediaCount();
    const res = await upload({ fileName: "huge.png", data: claimedSizePng(50_000, 50_000) }, { cookie: adminCookie });
    expect(res.status).toBe(422);
    expect(res.json.code).toBe("too-many-pixels");
    expect(await mediaCount()).toBe(before);
  });

  it("cuts off a file one byte over the limit with 413", async () => {
    const before = await mediaCount();
    const res = await upload({ fileName: "big.png", data: randomBytes(LIMIT + 1) }, { cookie: adminCookie });
    expect(res.status).toBe(413);
    expect(res.json.code).toBe("too-large");
    expect(await mediaCount()).toBe(before);
  });

  it("answers a streamed 1 GB body with 413 long before it is all sent", async () => {
    const boundary = "----inkwellstream";
    const sent = await new Promise<{ status: number; bytes: number }>((resolve, reject) => {
      let bytes = 0;
      let done = false;
      const req = httpRequest(`${server.url}/api/uploads`, {
        method: "POST",
        headers: {
          origin: server.url,
          cookie: adminCookie,
          "content-type": `multipart/form-data; boundary=${boundary}`,
          "transfer-encoding": "chunked",
        },
        agent: false,
      });
      const chunk = Buffer.alloc(256 * 1024, 0x61);
      const pump = () => {
        while (!done && bytes < 1024 ** 3) {
          bytes += chunk.length;
          if (!req.write(chunk)) {
            req.once("drain", pump);
            return;
          }
        }
        if (!done) req.end();
      };
      req.on("response", (res) => {
        done = true;
        res.resume();
        res.on("end", () => resolve({ status: res.statusCode ?? 0, bytes }));
        res.on("error", () => resolve({ status: res.statusCode ?? 0, bytes }));
      });
      req.on("error", (error) => {
        if (!done) reject(error);
      });
      req.write(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="huge.png"\r\n\r\n`);
      pump();
    });
    expect(sent.status).toBe(413);
    expect(sent.bytes).toBeLessThan(64 * 1024 * 1024);
    const health = await fetch(`${server.url}/healthz`);
    await health.arrayBuffer();
    expect(health.status).toBe(200);
  });

  it("sends a plain form post back to the media library with a message", async () => {
    const res = await upload(
      { fileName: "form.png", data: await png(20, 20) },
      { cookie: adminCookie, accept: "text/html" },
    );
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/admin/media");
    const refused = await upload(
      { fileName: "form.txt", data: Buffer.from("hi") },
      { cookie: adminCookie, accept: "text/html" },
    );
    expect(refused.status).toBe(302);
  });

  it("refuses to delete an image in use and deletes it with its files once unused", async () => {
    const res = await upload({ fileName: "cover.png", data: await png(40, 40) }, { cookie: adminCookie });
    const id = String((res.json.media as { id: string }).id);
    const now = new Date().toISOString();
    await db
      .insertInto("links")
      .values({
        id: `l${id.slice(1)}`,
        name: "Uses it",
        url: "https://example.com/",
        logoUrl: `/media/${id}/image.png`,
        createdAt: now,
        updatedAt: now,
      })
      .execute();
    const del = () =>
      fetch(`${server.url}/admin/media`, {
        method: "POST",
        redirect: "manual",
        headers: {
          origin: server.url,
          cookie: `${adminCookie}; locale=en`,
          "content-type": "application/x-www-form-urlencoded",
        },
        body: new URLSearchParams({ intent: "delete", id }).toString(),
      }).then(async (r) => ({ status: r.status, text: await r.text() }));
    const refused = await del();
    expect(refused.status).toBe(409);
    expect(refused.text).toContain("Uses it");
    expect(filesUnder(path.join(uploads(), id)).length).toBeGreaterThan(0);

    await db.deleteFrom("links").where("logoUrl", "=", `/media/${id}/image.png`).execute();
    expect((await del()).status).toBe(302);
    expect(await db.selectFrom("media").select("id").where("id", "=", id).executeTakeFirst()).toBeUndefined();
    expect(filesUnder(path.join(uploads(), id))).toEqual([]);
  });
});

describe(`uploads to S3-compatible storage (${testDialect()})`, () => {
  let s3: TestS3;
  let server: ServerProcess;
  let cdn: ServerProcess;
  let db: DB;
  let dataDir: string;
  let database: Awaited<ReturnType<typeof createServerDatabaseUrl>>;
  let cookie = "";

  beforeAll(async () => {
    s3 = await startTestS3(["inkwell-media"]);
    dataDir = tempDataDir();
    database = await createServerDatabaseUrl(dataDir);
    const common = {
      DATA_DIR: dataDir,
      DATABASE_URL: database.url,
      LOG_REQUESTS: "false",
      LOG_LEVEL: "error",
      STORAGE_DRIVER: "s3",
      S3_ENDPOINT: s3.endpoint,
      S3_BUCKET: "inkwell-media",
      S3_ACCESS_KEY_ID: "S3RVER",
      S3_SECRET_ACCESS_KEY: "S3RVER",
      S3_PREFIX: "site/",
    };
    server = await startServer(common);
    // A second instance on the same bucket, configured to send browsers to a CDN.
    cdn = await startServer({ ...common, S3_PUBLIC_URL: "https://cdn.example/inkwell-media" });
    db = openDatabase(parseDatabaseUrl(database.url, dataDir), { poolMax: 2 }).db;
    cookie = (await signedInAccount(server.url, db, "s3", { admin: true })).cookie;
  });

  afterAll(async () => {
    await server?.stop("SIGKILL");
    await cdn?.stop("SIGKILL");
    await db?.destroy();
    await database?.cleanup();
    await s3?.stop();
  });

  it("stores the files in the bucket under its prefix, and any instance serves them", async () => {
    const res = await uploadFile(server.url, { fileName: "bucket.jpg", data: await jpeg(700, 300) }, { cookie });
    const json = (await res.json()) as { media: { id: string; bucket: string; fullPath: string; size: number } };
    expect(res.status).toBe(201);
    const { id } = json.media;
    expect(json.media.bucket).toBe("inkwell-media");
    expect(json.media.fullPath).toBe(`inkwell-media/site/${id}/image.jpg`);
    expect(await s3.allKeys("inkwell-media")).toEqual(
      [`site/${id}/320.webp`, `site/${id}/640.webp`, `site/${id}/700.webp`, `site/${id}/image.jpg`].sort(),
    );
    expect(filesUnder(path.join(dataDir, "uploads"))).toEqual([]);

    const served = await fetch(`${server.url}/media/${id}/image.jpg`);
    const bytes = Buffer.from(await served.arrayBuffer());
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/jpeg");
    expect(bytes.length).toBe(json.media.size);

    const redirected = await fetch(`${cdn.url}/media/${id}/640.webp`, { redirect: "manual" });
    await redirected.arrayBuffer();
    expect(redirected.status).toBe(302);
    expect(redirected.headers.get("location")).toBe(`https://cdn.example/inkwell-media/site/${id}/640.webp`);
  });
});
