import { describe, expect, it } from "vitest";
import { federationStatus } from "./service.server.ts";

describe("federationStatus", () => {
  const https = "https://blog.example";
  it("follows the admin switch when the environment says nothing", () => {
    expect(federationStatus({ federation: null, publicUrl: https }, true)).toEqual({ on: true, reason: "switch-on" });
    expect(federationStatus({ federation: null, publicUrl: https }, false)).toEqual({
      on: false,
      reason: "switch-off",
    });
  });
  it("lets FEDERATION=on|off override the switch", () => {
    expect(federationStatus({ federation: "on", publicUrl: https }, false)).toEqual({ on: true, reason: "env-on" });
    expect(federationStatus({ federation: "off", publicUrl: https }, true)).toEqual({ on: false, reason: "env-off" });
  });
  it("stays off while PUBLIC_URL is not https, unless the test seam allows http", () => {
    const http = "http://127.0.0.1:3000";
    expect(federationStatus({ federation: "on", publicUrl: http }, true)).toEqual({ on: false, reason: "needs-https" });
    expect(federationStatus({ federation: "on", publicUrl: http }, true, true)).toEqual({ on: true, reason: "env-on" });
  });
});
