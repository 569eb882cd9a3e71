import { createHash } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestS3, type TestS3 } from "../../../tests/setup/s3rver.ts";
import { createS3Storage, mapS3Error } from "./s3.server.ts";
import { StorageError } from "./types.server.ts";

const PNG = { contentType: "image/png", cacheControl: "public, max-age=31536000, immutable" };

/** Fake time for withRetry: sleeping only moves the clock, and each wait is recorded. */
function fakeRetry(deadlineMs: number) {
  let t = 0;
  const sleeps: number[] = [];
  return {
    sleeps,
    retry: {
      deadlineMs,
      uploadDeadlineMs: deadlineMs,
      now: () => t,
      sleep: async (ms: number) => {
        sleeps.push(ms);
        t += ms;
      },
      random: () => 1,
    },
  };
}

async function caught(promise: Promise<unknown>): Promise<StorageError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof StorageError) return error;
    throw error;
  }
  throw new Error("expected a StorageError");
}

function causeCodes(error: unknown): string[] {
  const codes: string[] = [];
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    if ("code" in e && typeof e.code === "string") codes.push(e.code);
  }
  return codes;
}

let s3: TestS3;
beforeAll(async () => {
  s3 = await startTestS3(["inkwell-faults"]);
});
afterAll(async () => {
  await s3.stop();
});

describe("s3 storage faults", () => {
  it("retries a refused connection with growing waits, then answers retry-limit-exceeded", async () => {
    // A port that was free a moment ago: nothing listens there now.
    const probe = http.createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise((resolve) => probe.close(resolve));

    const { sleeps, retry } = fakeRetry(5_000);
    const driver = createS3Storage(s3.config({ endpoint: `http://127.0.0.1:${port}` }), { retry });
    const error = await caught(driver.head("ab/x.png"));

    expect(error.code).toBe("retry-limit-exceeded");
    expect(error.status).toBe(503);
    // Five attempts: 200+400+800+1600 = 3000 ms of waiting; the next 3200 would pass 5000.
    expect(sleeps).toEqual([200, 400, 800, 1600]);
    expect(error.cause).toBeInstanceOf(StorageError);
    expect((error.cause as StorageError).transient).toBe(true);
    expect(causeCodes(error)).toContain("ECONNREFUSED");
  });

  it("answers bucket-not-found for a wrong bucket, without retrying", async () => {
    const { sleeps, retry } = fakeRetry(60_000);
    const driver = createS3Storage(s3.config({ bucket: "no-such-bucket" }), { retry });
    expect((await caught(driver.put("ab/x.png", Buffer.from("x"), PNG))).code).toBe("bucket-not-found");
    expect((await caught(driver.get("ab/x.png"))).code).toBe("bucket-not-found");
    // HEAD answers have no body; a bare 404 must not pass for "object absent".
    expect((await caught(driver.head("ab/x.png"))).code).toBe("bucket-not-found");
    expect((await caught(driver.delete("ab/x.png"))).code).toBe("bucket-not-found");
    expect(sleeps).toEqual([]);
    expect(await driver.ping()).toBe(false);
    expect(await s3.allKeys("inkwell-faults")).toEqual([]);
  });
});

interface Recorded {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}
interface Scripted {
  status: number;
  code?: string;
  headers?: Record<string, string>;
}

/** An HTTP server that records requests and answers from a script, like a misbehaving S3. */
async function scriptedServer(script: Scripted[]) {
  const requests: Recorded[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      requests.push({
        method: req.method ?? "",
        url: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks),
      });
      const step = script.shift() ?? { status: 200 };
      const body = step.code
        ? `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${step.code}</Code><Message>scripted</Message></Error>`
        : "";
      res.writeHead(step.status, { "content-type": "application/xml", ...step.headers });
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    requests,
    endpoint: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

describe("s3 storage requests", () => {
  it("sends the object's headers and a Content-MD5 of its bytes, under the prefix", async () => {
    const data = Buffer.from("image bytes");
    const fake = await scriptedServer([{ status: 200, headers: { etag: '"x"' } }]);
    try {
      const driver = createS3Storage(s3.config({ endpoint: fake.endpoint, bucket: "media", prefix: "site/" }));
      const stored = await driver.put("ab/cd/640.webp", data, {
        contentType: "image/webp",
        cacheControl: "public, max-age=60",
        contentDisposition: 'inline; filename="photo.webp"',
        contentLanguage: "zh",
        customMetadata: { owner: "u1" },
      });
      const [put] = fake.requests;
      expect(put?.method).toBe("PUT");
      expect(new URL(put?.url ?? "", fake.endpoint).pathname).toBe("/media/site/ab/cd/640.webp");
      expect(put?.headers["content-md5"]).toBe(createHash("md5").update(data).digest("base64"));
      expect(put?.headers["content-type"]).toBe("image/webp");
      expect(put?.headers["cache-control"]).toBe("public, max-age=60");
      expect(put?.headers["content-disposition"]).toBe('inline; filename="photo.webp"');
      expect(put?.headers["content-language"]).toBe("zh");
      expect(put?.headers["x-amz-meta-owner"]).toBe("u1");
      expect(put?.body.equals(data)).toBe(true);
      expect(stored).toMatchObject({ bucket: "media", fullPath: "media/site/ab/cd/640.webp", size: data.length });
    } finally {
      await fake.close();
    }
  });

  it("retries a 503 and succeeds on the next attempt", async () => {
    const fake = await scriptedServer([{ status: 503, code: "SlowDown" }, { status: 204 }]);
    try {
      const { sleeps, retry } = fakeRetry(60_000);
      const driver = createS3Storage(s3.config({ endpoint: fake.endpoint }), { retry });
      await driver.delete("ab/x.png");
      expect(fake.requests.map((r) => r.method)).toEqual(["DELETE", "DELETE"]);
      expect(sleeps).toEqual([200]);
    } finally {
      await fake.close();
    }
  });

  it("does not retry refusals: 403, 401 and 507 answer at once with their codes", async () => {
    const fake = await scriptedServer([
      { status: 403, code: "AccessDenied" },
      { status: 403, code: "InvalidAccessKeyId" },
      { status: 507, code: "InsufficientStorage" },
    ]);
    try {
      const { sleeps, retry } = fakeRetry(60_000);
      const driver = createS3Storage(s3.config({ endpoint: fake.endpoint }), { retry });
      expect((await caught(driver.delete("a.png"))).code).toBe("unauthorized");
      expect((await caught(driver.delete("a.png"))).code).toBe("unauthenticated");
      const full = await caught(driver.put("a.png", Buffer.from("x"), PNG));
      expect(full.code).toBe("quota-exceeded");
      expect(full.status).toBe(507);
      expect(fake.requests).toHaveLength(3);
      expect(sleeps).toEqual([]);
    } finally {
      await fake.close();
    }
  });
});

describe("mapS3Error", () => {
  const sdkError = (name: string, status?: number) =>
    Object.assign(new Error(name), { name, $metadata: status === undefined ? {} : { httpStatusCode: status } });
  const network = (code: string) => Object.assign(new Error(code), { code });

  it.each([
    [sdkError("NoSuchKey", 404), "object-not-found", false],
    [sdkError("NotFound", 404), "object-not-found", false],
    [sdkError("UnknownError", 404), "object-not-found", false],
    [sdkError("NoSuchBucket", 404), "bucket-not-found", false],
    [sdkError("InvalidAccessKeyId", 403), "unauthenticated", false],
    [sdkError("SignatureDoesNotMatch", 403), "unauthenticated", false],
    [sdkError("UnknownError", 401), "unauthenticated", false],
    [sdkError("AccessDenied", 403), "unauthorized", false],
    [sdkError("UnknownError", 403), "unauthorized", false],
    [sdkError("QuotaExceeded", 400), "quota-exceeded", false],
    [sdkError("EntityTooLarge", 400), "quota-exceeded", false],
    [sdkError("UnknownError", 507), "quota-exceeded", false],
    [sdkError("InternalError", 500), "unknown", true],
    [sdkError("UnknownError", 502), "unknown", true],
    [sdkError("SlowDown", 503), "unknown", true],
    [sdkError("UnknownError", 429), "unknown", true],
    [sdkError("TimeoutError"), "unknown", true],
    [network("ECONNRESET"), "unknown", true],
    [network("ETIMEDOUT"), "unknown", true],
    [new AggregateError([network("ECONNREFUSED")], "connect failed"), "unknown", true],
    [sdkError("InvalidArgument", 400), "unknown", false],
    [new Error("strange"), "unknown", false],
  ])("maps %s to %s (transient: %s)", (error, code, transient) => {
    const mapped = mapS3Error(error);
    expect(mapped.code).toBe(code);
    expect(mapped.transient).toBe(transient);
    expect(mapped.cause).toBe(error);
    // Driver wording never reaches a user.
    expect(mapped.message).not.toContain(error.message);
  });
});

describe("s3 public addresses", () => {
  it("builds the public URL from S3_PUBLIC_URL and the prefix, or none without it", () => {
    const withCdn = createS3Storage(s3.config({ publicUrl: "https://cdn.example.com", prefix: "site/" }));
    expect(withCdn.publicUrl("ab/cd/640.webp")).toBe("https://cdn.example.com/site/ab/cd/640.webp");
    expect(createS3Storage(s3.config()).publicUrl("ab/cd/640.webp")).toBeNull();
  });
});
