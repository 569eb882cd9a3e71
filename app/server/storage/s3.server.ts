import { createHash } from "node:crypto";
import { Readable } from "node:stream";
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from "@aws-sdk/client-s3";
import type { StorageConfig } from "../platform/env.server.ts";
import { assertSafeKey, assertSafePrefix } from "./keys.server.ts";
import {
  type RetryTiming,
  STORAGE_OPERATION_DEADLINE_MS,
  STORAGE_UPLOAD_DEADLINE_MS,
  withRetry,
} from "./retry.server.ts";
import {
  type ObjectInfo,
  type ObjectStream,
  type OperationOptions,
  type PutOptions,
  type StorageDriver,
  StorageError,
} from "./types.server.ts";

export type S3StorageConfig = Extract<StorageConfig, { driver: "s3" }>;

export interface S3StorageOptions {
  retry?: RetryTiming & { deadlineMs?: number; uploadDeadlineMs?: number };
}

const NOT_FOUND = new Set(["NoSuchKey", "NotFound"]);
const UNAUTHENTICATED = new Set([
  "InvalidAccessKeyId",
  "SignatureDoesNotMatch",
  "ExpiredToken",
  "InvalidToken",
  "CredentialsProviderError",
]);
const UNAUTHORIZED = new Set(["AccessDenied", "Forbidden", "AllAccessDisabled"]);
const QUOTA = new Set(["QuotaExceeded", "EntityTooLarge", "InsufficientStorage"]);
const TRANSIENT = new Set([
  "SlowDown",
  "Throttling",
  "ThrottlingException",
  "TooManyRequestsException",
  "RequestLimitExceeded",
  "RequestTimeout",
  "RequestTimeoutException",
  "TimeoutError",
  "InternalError",
  "ServiceUnavailable",
  // The bytes arrived damaged: sending the same buffer again is the fix.
  "BadDigest",
  "ECONNRESET",
  "ECONNREFUSED",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
]);

/** Names and codes an SDK or network error carries, including those nested in causes. */
function errorTags(error: unknown, depth = 0): { tags: string[]; status: number | undefined } {
  const tags: string[] = [];
  let status: number | undefined;
  if (typeof error !== "object" || error === null || depth > 3) return { tags, status };
  const record = error as Record<string, unknown>;
  for (const field of ["name", "code", "Code"]) {
    const value = record[field];
    if (typeof value === "string") tags.push(value);
  }
  const metadata = record.$metadata;
  if (typeof metadata === "object" && metadata !== null) {
    const code = (metadata as Record<string, unknown>).httpStatusCode;
    if (typeof code === "number") status = code;
  }
  // Node reports a refused connection to several addresses as an AggregateError.
  const nested = [record.cause, ...(Array.isArray(record.errors) ? record.errors : [])];
  for (const inner of nested) {
    const more = errorTags(inner, depth + 1);
    tags.push(...more.tags);
    status ??= more.status;
  }
  return { tags, status };
}

/** Turns an SDK or network error into a StorageError with a message safe to show. */
export function mapS3Error(error: unknown): StorageError {
  if (error instanceof StorageError) return error;
  const { tags, status } = errorTags(error);
  const has = (set: Set<string>) => tags.some((t) => set.has(t));
  const make = (code: ConstructorParameters<typeof StorageError>[0], message: string, transient = false) =>
    new StorageError(code, message, { cause: error, transient });

  if (tags.includes("NoSuchBucket")) return make("bucket-not-found", "The storage bucket does not exist.");
  if (has(NOT_FOUND)) return make("object-not-found", "The stored object was not found.");
  if (has(UNAUTHENTICATED) || status === 401) return make("unauthenticated", "The storage rejected the credentials.");
  if (has(UNAUTHORIZED) || status === 403) return make("unauthorized", "The storage refused access.");
  if (has(QUOTA) || status === 507) return make("quota-exceeded", "The storage is full.");
  if (status === 404) return make("object-not-found", "The stored object was not found.");
  if (has(TRANSIENT) || status === 429 || (status !== undefined && status >= 500)) {
    return make("unknown", "The storage service is unavailable.", true);
  }
  return make("unknown", "The storage failed.");
}

function stripQuotes(etag: string | undefined): string {
  return (etag ?? "").replace(/^W\//, "").replace(/^"|"$/g, "");
}

/** Media in an S3-compatible bucket (AWS, MinIO, R2, s3rver in tests). */
export function createS3Storage(config: S3StorageConfig, options: S3StorageOptions = {}): StorageDriver {
  const client = new S3Client({
    region: config.region,
    ...(config.endpoint ? { endpoint: config.endpoint, forcePathStyle: true } : {}),
    ...(config.accessKeyId && config.secretAccessKey
      ? { credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey } }
      : {}),
    // withRetry owns retrying, with the spec's deadlines; two layers would multiply attempts.
    maxAttempts: 1,
    // We send Content-MD5 ourselves; the newer CRC checksums and their chunked
    // encoding are not understood by every S3-compatible store.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
    requestHandler: { connectionTimeout: 5_000, socketTimeout: 30_000 },
  });
  const timing = options.retry ?? {};
  const operationDeadline = timing.deadlineMs ?? STORAGE_OPERATION_DEADLINE_MS;
  const uploadDeadline = timing.uploadDeadlineMs ?? STORAGE_UPLOAD_DEADLINE_MS;
  const bucket = config.bucket;
  const prefix = config.prefix;

  const run = <T>(op: (signal: AbortSignal) => Promise<T>, deadlineMs: number, signal?: AbortSignal): Promise<T> =>
    withRetry(
      async (attemptSignal) => {
        try {
          return await op(attemptSignal);
        } catch (error) {
          throw mapS3Error(error);
        }
      },
      { ...timing, deadlineMs, signal },
    );

  const info = (
    key: string,
    size: number,
    md5Hash: string,
    updated: Date,
    contentType: string,
    cacheControl: string,
  ): ObjectInfo => ({
    bucket,
    name: key,
    fullPath: `${bucket}/${prefix}${key}`,
    size,
    md5Hash,
    generation: String(updated.getTime()),
    contentType,
    cacheControl,
    updated,
  });

  async function bucketExists(signal: AbortSignal): Promise<boolean> {
    try {
      await client.send(new HeadBucketCommand({ Bucket: bucket }), { abortSignal: signal });
      return true;
    } catch (error) {
      const mapped = mapS3Error(error);
      // HEAD answers carry no error body, so a missing bucket is a bare 404 here.
      if (mapped.code === "object-not-found" || mapped.code === "bucket-not-found") return false;
      throw mapped;
    }
  }

  return {
    kind: "s3",
    bucket,

    async put(key: string, data: Buffer, putOptions: PutOptions): Promise<ObjectInfo> {
      assertSafeKey(key);
      const digest = createHash("md5").update(data).digest();
      return run(
        async (signal) => {
          await client.send(
            new PutObjectCommand({
              Bucket: bucket,
              Key: prefix + key,
              Body: data,
              ContentLength: data.length,
              // The store checks the bytes against this and refuses a damaged upload.
              ContentMD5: digest.toString("base64"),
              ContentType: putOptions.contentType,
              CacheControl: putOptions.cacheControl,
              ContentDisposition: putOptions.contentDisposition,
              ContentEncoding: putOptions.contentEncoding,
              ContentLanguage: putOptions.contentLanguage,
              Metadata: putOptions.customMetadata,
            }),
            { abortSignal: signal },
          );
          // PutObject answers with no date; the write time is close enough for a generation.
          return info(
            key,
            data.length,
            digest.toString("hex"),
            new Date(),
            putOptions.contentType,
            putOptions.cacheControl,
          );
        },
        putOptions.deadlineMs ?? uploadDeadline,
        putOptions.signal,
      );
    },

    async get(key: string, opts: OperationOptions = {}): Promise<ObjectStream> {
      assertSafeKey(key);
      return run(
        async (signal) => {
          const out = await client.send(new GetObjectCommand({ Bucket: bucket, Key: prefix + key }), {
            abortSignal: signal,
          });
          if (!(out.Body instanceof Readable))
            throw new StorageError("unknown", "The storage answered without a body.");
          return {
            body: out.Body,
            size: out.ContentLength ?? 0,
            contentType: out.ContentType ?? "application/octet-stream",
            cacheControl: out.CacheControl ?? "",
            etag: out.ETag ?? "",
            lastModified: out.LastModified ?? new Date(0),
          };
        },
        opts.deadlineMs ?? operationDeadline,
        opts.signal,
      );
    },

    async head(key: string, opts: OperationOptions = {}): Promise<ObjectInfo | null> {
      assertSafeKey(key);
      return run(
        async (signal) => {
          try {
            const out = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: prefix + key }), {
              abortSignal: signal,
            });
            return info(
              key,
              out.ContentLength ?? 0,
              stripQuotes(out.ETag),
              out.LastModified ?? new Date(0),
              out.ContentType ?? "application/octet-stream",
              out.CacheControl ?? "",
            );
          } catch (error) {
            const mapped = mapS3Error(error);
            if (mapped.code !== "object-not-found") throw mapped;
            // A bare 404 may also mean the bucket is gone, which must not read as "absent".
            if (!(await bucketExists(signal))) {
              throw new StorageError("bucket-not-found", "The storage bucket does not exist.", { cause: error });
            }
            return null;
          }
        },
        opts.deadlineMs ?? operationDeadline,
        opts.signal,
      );
    },

    async delete(key: string, opts: OperationOptions = {}): Promise<void> {
      assertSafeKey(key);
      await run(
        async (signal) => {
          try {
            await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: prefix + key }), { abortSignal: signal });
          } catch (error) {
            const mapped = mapS3Error(error);
            if (mapped.code !== "object-not-found") throw mapped;
          }
        },
        opts.deadlineMs ?? operationDeadline,
        opts.signal,
      );
    },

    async *list(keyPrefix = ""): AsyncIterable<string> {
      assertSafePrefix(keyPrefix);
      let token: string | undefined;
      do {
        const page = await run(
          (signal) =>
            client.send(
              new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix + keyPrefix, ContinuationToken: token }),
              { abortSignal: signal },
            ),
          operationDeadline,
        );
        for (const object of page.Contents ?? []) {
          if (object.Key?.startsWith(prefix)) yield object.Key.slice(prefix.length);
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
    },

    publicUrl(key: string): string | null {
      assertSafeKey(key);
      return config.publicUrl ? `${config.publicUrl}/${prefix}${key}` : null;
    },

    async ping(): Promise<boolean> {
      try {
        return await bucketExists(AbortSignal.timeout(5_000));
      } catch {
        return false;
      }
    },
  };
}
