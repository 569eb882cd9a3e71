import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { png } from "../../../tests/fixtures/images.ts";
import { fetchRemoteImage, isPublicAddress, type RemoteFetchOptions } from "./remote-fetch.server.ts";

// The remote-image fetch of `--fetch-remote` against a local server standing for a remote one
// (127.0.0.1 taken as public by the test option), and the SSRF targets it must refuse.

let server: Server;
let base: string;
let port: number;
let image: Buffer;

const opts = (extra: Partial<RemoteFetchOptions> = {}): RemoteFetchOptions => ({
  timeoutMs: 2_000,
  maxBytes: 100_000,
  maxRedirects: 3,
  treatAsPublic: ["127.0.0.1"],
  ...extra,
});

beforeAll(async () => {
  image = await png(32, 32);
  server = createServer((req, res) => {
    const url = req.url ?? "/";
    if (url === "/pic.png") res.writeHead(200, { "content-type": "image/png" }).end(image);
    else if (url === "/page") res.writeHead(200, { "content-type": "text/html" }).end("<html></html>");
    else if (url === "/big.png") {
      res.writeHead(200, { "content-type": "image/png" });
      res.end(Buffer.alloc(200_000));
    } else if (url === "/slow.png") {
      res.writeHead(200, { "content-type": "image/png" });
      res.write(image.subarray(0, 10));
    } else if (url === "/hop") res.writeHead(302, { location: "/pic.png" }).end();
    else if (url === "/to-loopback") res.writeHead(302, { location: `http://127.0.0.2:${port}/pic.png` }).end();
    else if (url === "/to-v6") res.writeHead(301, { location: `http://[::1]:${port}/pic.png` }).end();
    else if (url === "/to-metadata") res.writeHead(302, { location: "http://169.254.169.254/latest/meta-data/" }).end();
    else if (url === "/to-internal") res.writeHead(302, { location: `http://internal.test:${port}/pic.png` }).end();
    else if (url === "/loop") res.writeHead(302, { location: "/loop" }).end();
    else res.writeHead(404).end();
  });
  server.listen(0, "127.0.0.1");
  await new Promise<void>((r) => server.once("listening", () => r()));
  port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

describe("fetchRemoteImage", () => {
  it("fetches an image, following a redirect", async () => {
    const direct = await fetchRemoteImage(`${base}/pic.png`, opts());
    expect(direct).toMatchObject({ ok: true, contentType: "image/png" });
    expect(direct.ok && direct.data.equals(image)).toBe(true);
    expect(await fetchRemoteImage(`${base}/hop`, opts())).toMatchObject({ ok: true, url: `${base}/pic.png` });
  });

  it("refuses loopback, private, link-local and odd addresses, by literal or by name", async () => {
    for (const url of [
      `http://127.0.0.1:${port}/pic.png`,
      "http://10.1.2.3/x.png",
      "http://172.16.0.1/x.png",
      "http://192.168.1.1/x.png",
      "http://169.254.169.254/latest/meta-data/",
      "http://0.0.0.0/x.png",
      "http://[::1]/x.png",
      "http://[::ffff:127.0.0.1]/x.png",
      "http://[fe80::1]/x.png",
      "http://[fd00::1]/x.png",
      "http://localhost/x.png",
      "http://2130706433/x.png",
    ])
      expect(await fetchRemoteImage(url, opts({ treatAsPublic: [] })), url).toMatchObject({
        ok: false,
        reason: "remotePrivate",
      });
    // A name with one public and one private address is refused as a whole.
    const lookup = async () => [
      { address: "93.184.216.34", family: 4 },
      { address: "10.0.0.7", family: 4 },
    ];
    expect(await fetchRemoteImage("http://mixed.test/x.png", opts({ lookup }))).toMatchObject({
      ok: false,
      reason: "remotePrivate",
    });
  });

  it("refuses redirects to private addresses, too many hops and other schemes", async () => {
    const lookup = async (host: string) =>
      host === "internal.test" ? [{ address: "10.0.0.5", family: 4 }] : [{ address: "127.0.0.1", family: 4 }];
    for (const path of ["/to-loopback", "/to-v6", "/to-metadata", "/to-internal"])
      expect(await fetchRemoteImage(`${base}${path}`, opts({ lookup })), path).toMatchObject({
        ok: false,
        reason: "remotePrivate",
      });
    expect(await fetchRemoteImage(`${base}/loop`, opts())).toMatchObject({ ok: false, reason: "remoteRedirects" });
    for (const url of ["file:///etc/passwd", "ftp://example.org/x.png", "http://user:pw@example.org/x.png", "nope"])
      expect(await fetchRemoteImage(url, opts()), url).toMatchObject({ ok: false, reason: "remoteUrl" });
  });

  it("stops at the size limit, the time-out and anything not an image", async () => {
    expect(await fetchRemoteImage(`${base}/big.png`, opts())).toMatchObject({ ok: false, reason: "remoteTooLarge" });
    expect(await fetchRemoteImage(`${base}/slow.png`, opts({ timeoutMs: 300 }))).toMatchObject({
      ok: false,
      reason: "remoteTimeout",
    });
    expect(await fetchRemoteImage(`${base}/page`, opts())).toMatchObject({ ok: false, reason: "remoteType" });
    expect(await fetchRemoteImage(`${base}/missing.png`, opts())).toMatchObject({ ok: false, reason: "remoteStatus" });
  });

  it("classifies addresses", () => {
    expect(isPublicAddress("93.184.216.34")).toBe(true);
    expect(isPublicAddress("2606:2800:220:1:248:1893:25c8:1946")).toBe(true);
    for (const a of [
      "127.0.0.1",
      "10.0.0.1",
      "100.64.0.1",
      "::1",
      "::ffff:10.0.0.1",
      "64:ff9b::a00:1",
      "::127.0.0.1",
      "not-an-ip",
    ])
      expect(isPublicAddress(a), a).toBe(false);
  });
});
