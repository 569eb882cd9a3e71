// Test-only: a real S3-compatible server (s3rver) on a random local port.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { CreateBucketCommand, ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import S3rver from "s3rver";
import type { S3StorageConfig } from "../../app/server/storage/s3.server.ts";

export interface TestS3 {
  endpoint: string;
  /** A plain client, to look at the bucket behind the driver's back. */
  client: S3Client;
  config(overrides?: Partial<S3StorageConfig>): S3StorageConfig;
  /** Every key in a bucket, whatever its prefix. */
  allKeys(bucket: string): Promise<string[]>;
  stop(): Promise<void>;
}

// s3rver accepts any well-formed signature made with these.
const CREDENTIALS = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };

export async function startTestS3(buckets: string[]): Promise<TestS3> {
  const directory = mkdtempSync(path.join(os.tmpdir(), "inkwell-s3rver-"));
  const server = new S3rver({ address: "127.0.0.1", port: 0, silent: true, directory });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new S3Client({ region: "us-east-1", endpoint, forcePathStyle: true, credentials: CREDENTIALS });
  for (const bucket of buckets) await client.send(new CreateBucketCommand({ Bucket: bucket }));

  return {
    endpoint,
    client,
    config: (overrides = {}) => ({
      driver: "s3",
      endpoint,
      region: "us-east-1",
      bucket: buckets[0] ?? "media",
      ...CREDENTIALS,
      publicUrl: null,
      prefix: "",
      ...overrides,
    }),
    async allKeys(bucket) {
      const keys: string[] = [];
      let token: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, ContinuationToken: token }));
        for (const object of page.Contents ?? []) if (object.Key) keys.push(object.Key);
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
      return keys.sort();
    },
    async stop() {
      client.destroy();
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
