import { PassThrough } from "node:stream";
import { createReadableStreamFromReadable } from "@react-router/node";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import type { EntryContext, HandleErrorFunction, RouterContextProvider } from "react-router";
import { ServerRouter } from "react-router";
import { DocumentPartsProvider } from "./components/document-parts.tsx";
import { NonceProvider } from "./components/nonce.tsx";
import { RequestLocaleProvider } from "./components/request-locale.tsx";
import { isLeanEntry, leanEntryContext } from "./lean/entry-context.server.ts";
import { requestContext, servicesContext } from "./server/boot/context.server.ts";

export const streamTimeout = 5_000;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
): Response | Promise<Response> {
  if (request.method.toUpperCase() === "HEAD") {
    responseHeaders.set("Content-Type", "text/html; charset=utf-8");
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }
  const { nonce, log, documentParts, locale } = loadContext.get(requestContext);
  // A lean document needs neither the whole route manifest nor the hydration data.
  const context = isLeanEntry(routerContext) ? leanEntryContext(routerContext) : routerContext;

  return new Promise((resolve, reject) => {
    let shellRendered = false;
    let status = responseStatusCode;
    const userAgent = request.headers.get("user-agent");
    // Bots and crawlers get the whole document at once.
    const readyOption = (userAgent && isbot(userAgent)) || routerContext.isSpaMode ? "onAllReady" : "onShellReady";

    let timeoutId: NodeJS.Timeout | undefined = setTimeout(() => abort(), streamTimeout + 1000);

    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <RequestLocaleProvider value={locale}>
          <DocumentPartsProvider value={documentParts}>
            <ServerRouter context={context} url={request.url} nonce={nonce} />
          </DocumentPartsProvider>
        </RequestLocaleProvider>
      </NonceProvider>,
      {
        nonce,
        [readyOption]() {
          shellRendered = true;
          const body = new PassThrough({
            final(callback) {
              clearTimeout(timeoutId);
              timeoutId = undefined;
              callback();
            },
          });
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          pipe(body);
          resolve(
            new Response(createReadableStreamFromReadable(body), {
              headers: responseHeaders,
              status,
            }),
          );
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          status = 500;
          if (shellRendered) log.error({ err: error }, "error while streaming a page");
        },
      },
    );
  });
}

export const handleError: HandleErrorFunction = (error, { request, context }) => {
  if (request.signal.aborted) return;
  const { dbHealth } = context.get(servicesContext);
  const { log } = context.get(requestContext);
  // The database being away is logged once by the health monitor, not per request.
  if (dbHealth.noteError(error)) return;
  log.error({ err: error, url: request.url }, "error in a loader, action or render");
};
