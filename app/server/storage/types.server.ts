import type { Readable } from "node:stream";

/**
 * Storage error codes, after the spec's storage codes (section 8). Every driver
 * error is turned into one of these; the raw driver error never reaches a user.
 */
export type StorageErrorCode =
  | "object-not-found"
  | "bucket-not-found"
  | "quota-exceeded"
  | "unauthenticated"
  | "unauthorized"
  | "retry-limit-exceeded"
  | "canceled"
  | "invalid-url"
  | "invalid-format"
  | "unknown";

/** The HTTP status each code answers with (quota-exceeded and a full disk: 507). */
export const STORAGE_ERROR_STATUS: Record<StorageErrorCode, number> = {
  "object-not-found": 404,
  "bucket-not-found": 503,
  "quota-exceeded": 507,
  unauthenticated: 401,
  unauthorized: 403,
  "retry-limit-exceeded": 503,
  canceled: 499,
  "invalid-url": 400,
  "invalid-format": 415,
  unknown: 500,
};

export class StorageError extends Error {
  override name = "StorageError";
  readonly code: StorageErrorCode;
  /** Worth retrying (network hiccup, 5xx, throttling); never true for a 4xx-like code. */
  readonly transient: boolean;
  constructor(code: StorageErrorCode, message: string, options: { cause?: unknown; transient?: boolean } = {}) {
    super(message, { cause: options.cause });
    this.code = code;
    this.transient = options.transient ?? false;
  }
  get status(): number {
    return STORAGE_ERROR_STATUS[this.code];
  }
}

/** What is written alongside an object's bytes. */
export interface PutOptions {
  contentType: string;
  cacheControl: string;
  contentDisposition?: string;
  contentEncoding?: string;
  contentLanguage?: string;
  customMetadata?: Record<string, string>;
  /** Cancels the upload and its retries (StorageError "canceled"). */
  signal?: AbortSignal;
  /** How long to keep retrying; defaults to STORAGE_UPLOAD_DEADLINE_MS (spec: uploads up to 10 minutes). */
  deadlineMs?: number;
}

/** Per-call options for the reading and deleting methods. */
export interface OperationOptions {
  /** Cancels the call and its retries (StorageError "canceled"). */
  signal?: AbortSignal;
  /** How long to keep retrying; defaults to the driver's operation deadline (spec: 2 minutes). */
  deadlineMs?: number;
}

/** What the store says about one object (spec section 3, minus what only the database knows). */
export interface ObjectInfo {
  /** Local: "local"; S3: the bucket name. */
  bucket: string;
  /** The key inside the store root or bucket prefix, e.g. "ab/abcdef…/640.webp". */
  name: string;
  /** Bucket plus prefix plus key, e.g. "inkwell-media/site/ab/abcdef…/640.webp". */
  fullPath: string;
  size: number;
  /** Hex MD5 of the bytes. */
  md5Hash: string;
  /** Milliseconds since the epoch. */
  generation: string;
  contentType: string;
  cacheControl: string;
  updated: Date;
}

export interface ObjectStream {
  body: Readable;
  size: number;
  contentType: string;
  cacheControl: string;
  /** Strong validator for conditional GETs. */
  etag: string;
  lastModified: Date;
}

/**
 * One interface, two drivers (local disk and S3-compatible). Keys are generated
 * by the server and checked by `assertSafeKey`: nothing is ever written outside
 * the root or the bucket prefix.
 */
export interface StorageDriver {
  readonly kind: "local" | "s3";
  readonly bucket: string;
  /** Writes the whole object or nothing (no partial file is ever visible). */
  put(key: string, data: Buffer, options: PutOptions): Promise<ObjectInfo>;
  /** The object's bytes as a stream; StorageError("object-not-found") when absent. */
  get(key: string, options?: OperationOptions): Promise<ObjectStream>;
  /** The object's info, or null when absent. */
  head(key: string, options?: OperationOptions): Promise<ObjectInfo | null>;
  /** Removes the object; removing an absent object is not an error. */
  delete(key: string, options?: OperationOptions): Promise<void>;
  /** Every key under an optional key prefix. */
  list(prefix?: string): AsyncIterable<string>;
  /** A public address for the key when the store has one (S3_PUBLIC_URL), else null. */
  publicUrl(key: string): string | null;
  /** Reachability check for readiness probes. */
  ping(): Promise<boolean>;
}
