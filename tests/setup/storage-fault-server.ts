// The production server with local uploads on a disk that is always full: every
// file write stops half-way with ENOSPC (tests/faults/storage.test.ts starts it).
import { start } from "../../server.ts";
import { faultyFileSystem } from "./storage-faults.ts";

await start({ localFileSystem: faultyFileSystem("enospc") });
