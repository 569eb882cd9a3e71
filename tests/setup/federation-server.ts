// The production server with federation allowed over plain http to loopback peers
// (tests/integration/federation.test.ts starts it; production never passes this seam).
import { start } from "../../server.ts";

await start({ federationTestMode: { allowPrivateAddress: true, allowHttp: true } });
