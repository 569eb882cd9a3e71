// `npm start`: build when needed, then serve (migrations run as the server starts).
import { ensureBuild } from "./build-if-stale.ts";

ensureBuild();
const { start } = await import("../server.ts");
await start();
