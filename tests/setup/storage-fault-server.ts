// The production server with local uploads on a disk that is always full: every
// file write stops half-way with ENOSPC (tests/faults/storage.test.ts starts it).
import { builtStart } from "./built-server.ts";
import { faultyFileSystem } from "./storage-faults.ts";

const start = await builtStart();

await start({ localFileSystem: faultyFileSystem("enospc") });
