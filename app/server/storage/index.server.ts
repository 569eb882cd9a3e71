import type { StorageConfig } from "../env.server.ts";
import { createLocalStorage } from "./local.server.ts";
import { createS3Storage } from "./s3.server.ts";
import type { StorageDriver } from "./types.server.ts";

/** The driver STORAGE_DRIVER names, built from the parsed environment. */
export function createStorage(
  config: StorageConfig,
  retry?: { deadlineMs: number; uploadDeadlineMs: number },
): StorageDriver {
  const options = retry ? { retry } : {};
  return config.driver === "s3" ? createS3Storage(config, options) : createLocalStorage(config.root, options);
}
