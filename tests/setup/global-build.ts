import { ensureBuild } from "../../scripts/build-if-stale.js";

// The server-process integration tests run the production build.
export default function setup(): void {
  ensureBuild({ quiet: true });
}
