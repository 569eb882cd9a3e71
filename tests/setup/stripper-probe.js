// @ts-check
// Preloaded into a server a test starts (`node --import ./tests/setup/stripper-probe.js`):
// as the process exits, it writes to STRIPPER_PROBE_FILE the internal modules it loaded
// that belong to Node's TypeScript stripper (amaro), which Node loads on the first
// TypeScript file it runs. Plain JavaScript, so the probe loads none itself.
import { writeFileSync } from "node:fs";

const out = process.env.STRIPPER_PROBE_FILE;
if (out) {
  process.once("exit", () => {
    // Node's list of the internal modules it loaded; @types/node does not declare it.
    const { moduleLoadList } = /** @type {{ moduleLoadList: string[] }} */ (/** @type {unknown} */ (process));
    writeFileSync(out, JSON.stringify(moduleLoadList.filter((name) => name.includes("amaro"))));
  });
}
