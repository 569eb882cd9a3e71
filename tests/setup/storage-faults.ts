import { open } from "node:fs/promises";
import type { LocalFileSystem, LocalWriteHandle } from "../../app/server/storage/local.server.ts";

/**
 * Fault injection for tests of the whole server (storage-fault-server.ts): "enospc"
 * makes every file write stop half-way with ENOSPC, as a full disk does. The
 * local driver must then remove its temporary file and report quota-exceeded.
 */
export type StorageFault = "enospc";

export function faultyFileSystem(fault: StorageFault): Partial<LocalFileSystem> {
  return {
    async open(file: string, flags: string, mode: number): Promise<LocalWriteHandle> {
      const handle = await open(file, flags, mode);
      return {
        async writeFile(data: Uint8Array) {
          await handle.writeFile(data.subarray(0, Math.floor(data.length / 2)));
          const error = Object.assign(new Error(`${fault}: no space left on device, write`), {
            code: "ENOSPC",
            errno: -28,
            syscall: "write",
          });
          throw error;
        },
        sync: () => handle.sync(),
        close: () => handle.close(),
      };
    },
  };
}
