import type { StorageConfig } from "../platform/env.server.ts";
import { createLocalStorage } from "./local.server.ts";
import type { StorageDriver } from "./types.server.ts";

/**
 * The driver STORAGE_DRIVER names, built from the parsed environment. The S3 driver
 * (and the AWS SDK behind it, ~30 MiB once loaded) is imported only when it is the one.
 */
export async function createStorage(
  config: StorageConfig,
  retry?: { deadlineMs: number; uploadDeadlineMs: number },
): Promise<StorageDriver> {
  const options = retry ? { retry } : {};
  if (config.driver !== "s3") return createLocalStorage(config.root, options);
  const { createS3Storage } = await import("./s3.server.ts");
  return createS3Storage(config, options);
}
