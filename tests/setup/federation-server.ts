// The production server with federation allowed over plain http to loopback peers
// (tests/integration/federation.test.ts starts it; production never passes this seam).
import { builtStart } from "./built-server.ts";

const start = await builtStart();

// A failed delivery, and a queue message whose handler threw, are retried after 0.5–1 s
// instead of 30–60 s; a test may shorten the
// time after which a failing server is given up as dead (3 days in production).
const deadAfterMs = Number(process.env.TEST_FEDERATION_DEAD_AFTER_MS ?? 0);
await start({
  federationTestMode: {
    allowPrivateAddress: true,
    allowHttp: true,
    retryInitialMs: 500,
    queueBackoffMs: 500,
    ...(deadAfterMs > 0 ? { deadAfterMs } : {}),
  },
});
