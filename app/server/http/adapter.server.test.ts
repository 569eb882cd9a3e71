import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BodyState, sendFetchResponse, toFetchRequest } from "./adapter.server.ts";

const LIMIT = 64 * 1024;
let url: string;
let close: () => Promise<void>;
const states: BodyState[] = [];

beforeAll(async () => {
  const app = express();
  app.use(async (req, res) => {
    const { request, body } = toFetchRequest(req, res, { bodyLimit: LIMIT });
    states.push(body);
    try {
      const text = request.body ? await request.text() : "";
      await sendFetchResponse(
        res,
        new Response(JSON.stringify({ method: request.method, url: request.url, length: text.length }), {
          status: 200,
          headers: [
            ["content-type", "application/json"],
            ["set-cookie", "a=1; Path=/"],
            ["set-cookie", "b=2; Path=/"],
          ],
        }),
      );
    } catch {
      res.status(body.tooLarge ? 413 : 500).end();
    }
  });
  const server = app.listen(0, "127.0.0.1");
  await new Promise<void>((r) => server.once("listening", () => r()));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => new Promise((r) => server.close(() => r()));
});

afterAll(async () => {
  await close();
});

function streamed(size: number): ReadableStream<Uint8Array> {
  const chunk = new Uint8Array(16 * 1024).fill(97);
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent >= size) return controller.close();
      const n = Math.min(chunk.length, size - sent);
      controller.enqueue(chunk.subarray(0, n));
      sent += n;
    },
  });
}

describe("the Express → Fetch adapter", () => {
  it("passes method, URL and a body under the limit through", async () => {
    const res = await fetch(`${url}/a/b?c=1`, { method: "POST", body: "x".repeat(1000) });
    expect(await res.json()).toEqual({ method: "POST", url: `${url}/a/b?c=1`, length: 1000 });
  });

  it("keeps every Set-Cookie header separate", async () => {
    const res = await fetch(`${url}/`);
    expect(res.headers.getSetCookie()).toEqual(["a=1; Path=/", "b=2; Path=/"]);
  });

  it("cuts a streamed body off once it passes the limit", async () => {
    const before = states.length;
    const res = await fetch(`${url}/`, { method: "POST", body: streamed(1024 * 1024), duplex: "half" } as RequestInit);
    expect(res.status).toBe(413);
    expect(states[before]?.tooLarge).toBe(true);
  });

  it("accepts a streamed body exactly at the limit", async () => {
    const res = await fetch(`${url}/`, { method: "POST", body: streamed(LIMIT), duplex: "half" } as RequestInit);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { length: number }).length).toBe(LIMIT);
  });

  it("aborts the request's signal when the client leaves early, not after a response was sent", async () => {
    const app = express();
    const signals: AbortSignal[] = [];
    let gone: () => void = () => {};
    const left = new Promise<void>((r) => {
      gone = r;
    });
    app.use(async (req, res) => {
      const { request } = toFetchRequest(req, res, { bodyLimit: LIMIT });
      signals.push(request.signal);
      if (req.path === "/slow") {
        request.signal.addEventListener("abort", () => gone());
        return; // never answers: the client gives up
      }
      await sendFetchResponse(res, new Response("done"));
    });
    const server = app.listen(0, "127.0.0.1");
    await new Promise<void>((r) => server.once("listening", () => r()));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      expect(await (await fetch(`${base}/fast`)).text()).toBe("done");
      const leaving = new AbortController();
      const slow = fetch(`${base}/slow`, { signal: leaving.signal }).catch(() => null);
      while (signals.length < 2) await new Promise((r) => setTimeout(r, 5));
      leaving.abort();
      await slow;
      await left;
      expect(signals[1]?.aborted).toBe(true);
      expect(signals[0]?.aborted).toBe(false);
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(() => r(null)));
    }
  });
});
