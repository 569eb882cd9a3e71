import { type Readable, Transform } from "node:stream";
import { createReadableStreamFromReadable, writeReadableStreamToWritable } from "@react-router/node";
import type { Request as ExpressRequest, Response as ExpressResponse } from "express";

export class BodyTooLargeError extends Error {
  override name = "BodyTooLargeError";
  readonly status = 413;
}

export interface BodyState {
  tooLarge: boolean;
}

/**
 * Counts the request body as it streams and cuts it off past `limit` bytes, so an
 * oversized body is never buffered whole.
 */
function limitBody(req: ExpressRequest, limit: number, state: BodyState): Readable {
  let seen = 0;
  const limiter = new Transform({
    transform(chunk: Buffer, _enc, callback) {
      seen += chunk.length;
      if (seen > limit) {
        state.tooLarge = true;
        callback(new BodyTooLargeError("request body too large"));
        req.unpipe(limiter);
        req.resume();
        return;
      }
      callback(null, chunk);
    },
  });
  req.on("error", (err) => limiter.destroy(err));
  return req.pipe(limiter);
}

/**
 * Builds a Fetch API Request from an Express request, with a bounded body.
 * `trusted` headers carry what the server decided (the client's address, the
 * request's language): whatever the client sent under those names is dropped.
 */
export function toFetchRequest(
  req: ExpressRequest,
  res: ExpressResponse,
  opts: { bodyLimit: number; trusted?: Readonly<Record<string, string>> },
): { request: Request; body: BodyState } {
  const url = new URL(req.originalUrl, `${req.protocol}://${req.get("host") ?? "localhost"}`);
  const controller = new AbortController();
  // Aborted when the client goes away before the response is sent, not after every
  // response: an abort builds a DOMException and runs every listener, per request.
  let finished = false;
  res.once("finish", () => {
    finished = true;
  });
  res.once("close", () => {
    if (!finished) controller.abort();
  });

  const trusted = opts.trusted ?? {};
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || Object.hasOwn(trusted, name)) continue;
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else headers.set(name, value);
  }
  for (const [name, value] of Object.entries(trusted)) headers.set(name, value);

  const body: BodyState = { tooLarge: false };
  const init: RequestInit & { duplex?: "half" } = { method: req.method, headers, signal: controller.signal };
  if (req.method !== "GET" && req.method !== "HEAD") {
    init.body = createReadableStreamFromReadable(limitBody(req, opts.bodyLimit, body));
    init.duplex = "half";
  }
  return { request: new Request(url, init), body };
}

/** Writes a Fetch API Response to the Node response, streaming the body. */
export async function sendFetchResponse(res: ExpressResponse, response: Response): Promise<void> {
  res.statusCode = response.status;
  for (const [name, value] of response.headers) {
    if (name === "set-cookie") continue;
    res.setHeader(name, value);
  }
  const cookies = response.headers.getSetCookie();
  // Appended: an earlier step may have set one already.
  if (cookies.length > 0) res.append("set-cookie", cookies);
  if (response.body && res.req.method !== "HEAD") {
    await writeReadableStreamToWritable(response.body, res);
  } else {
    res.end();
  }
}
