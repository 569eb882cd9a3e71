import { describe, expect, it } from "vitest";
import { createRenderFlights, waitAtMost } from "./render-flights.server.ts";

describe("render flights", () => {
  it("has readers of a page being rendered wait until its render ends", async () => {
    const flights = createRenderFlights();
    expect(flights.pending("/a")).toBeNull();
    const end = flights.start("/a");
    const pending = flights.pending("/a");
    expect(pending).not.toBeNull();
    expect(flights.pending("/b")).toBeNull();
    let ended = false;
    void pending?.then(() => {
      ended = true;
    });
    await Promise.resolve();
    expect(ended).toBe(false);
    end();
    await pending;
    expect(ended).toBe(true);
    expect(flights.pending("/a")).toBeNull();
    expect(flights.size).toBe(0);
  });

  it("lets an old render's end leave a newer render of the same page alone", async () => {
    const flights = createRenderFlights();
    const endOld = flights.start("/a");
    const endNew = flights.start("/a");
    endOld();
    expect(flights.pending("/a")).not.toBeNull();
    endNew();
    expect(flights.pending("/a")).toBeNull();
    endNew(); // twice is harmless
    expect(flights.size).toBe(0);
  });

  it("stops waiting after the limit when a render does not end", async () => {
    const never = new Promise<void>(() => {});
    expect(await waitAtMost(never, 20)).toBe(false);
    expect(await waitAtMost(Promise.resolve(), 1000)).toBe(true);
  });
});
