// The production server with federation allowed over plain http to loopback peers
// (tests/integration/federation.test.ts starts it; production never passes this seam).
import { start } from "../../server.ts";

// A failed delivery is retried after 0.5–1 s instead of 30–60 s.
await start({ federationTestMode: { allowPrivateAddress: true, allowHttp: true, retryInitialMs: 500 } });
