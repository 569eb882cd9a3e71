import { generateKeyPairSync, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { interactionPolicy, Provider } from "oidc-provider";

/**
 * A local OpenID Connect provider for the browser tests (`oidc-provider` over
 * plain http on 127.0.0.1). Its sign-in page asks for nothing but an e-mail and
 * whether the provider should assert it as verified, so a test chooses the
 * identity by filling that form:
 *
 * - "Email": the address in the `email` claim;
 * - "Email verified" (checked by default): the `email_verified` claim.
 *
 * The subject (`sub`) is derived from both, so the same address asserted as
 * verified and as unverified are two different provider accounts. Every
 * authorization asks for the sign-in again, even when the browser already has a
 * session here, and consent is given without asking.
 */
export interface OidcTestProvider {
  issuer: string;
  discoveryUrl: string;
  clientId: string;
  clientSecret: string;
  close(): Promise<void>;
}

export interface OidcTestProviderOptions {
  /** The redirect URIs the one registered client may use. */
  redirectUris: string[];
  clientId?: string;
}

const VERIFIED = "verified:";
const UNVERIFIED = "unverified:";

/** The provider account id for an asserted identity; also its `sub`. */
export function testAccountId(email: string, emailVerified: boolean): string {
  return `${emailVerified ? VERIFIED : UNVERIFIED}${email.trim().toLowerCase()}`;
}

function parseAccountId(id: string): { email: string; emailVerified: boolean } | null {
  if (id.startsWith(VERIFIED)) return { email: id.slice(VERIFIED.length), emailVerified: true };
  if (id.startsWith(UNVERIFIED)) return { email: id.slice(UNVERIFIED.length), emailVerified: false };
  return null;
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c);

function loginPage(uid: string, loginHint: string): string {
  const action = `/interaction/${encodeURIComponent(uid)}/login`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Test OpenID provider</title></head>
<body>
<h1>Test OpenID provider</h1>
<form method="post" action="${escapeHtml(action)}">
<p><label for="email">Email</label> <input id="email" name="email" type="email" required value="${escapeHtml(loginHint)}"></p>
<p><input id="email_verified" name="email_verified" type="checkbox" checked> <label for="email_verified">Email verified</label></p>
<p><button type="submit">Sign in</button></p>
</form>
</body></html>`;
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += buffer.length;
    if (size > 16_384) throw new Error("form too large");
    chunks.push(buffer);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
}

function send(res: ServerResponse, status: number, type: string, body: string) {
  res.statusCode = status;
  res.setHeader("content-type", `${type}; charset=utf-8`);
  res.setHeader("cache-control", "no-store");
  res.end(body);
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port));
  });
}

export async function startOidcProvider(options: OidcTestProviderOptions): Promise<OidcTestProvider> {
  const clientId = options.clientId ?? "inkwell-e2e";
  const clientSecret = randomBytes(24).toString("base64url");

  // The HTTP server comes first: the issuer has to name its port.
  let handle: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => send(res, 503, "text/plain", "");
  const server = createServer((req, res) => handle(req, res));
  const port = await listen(server);
  const issuer = `http://127.0.0.1:${port}`;

  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const signingKey = { ...privateKey.export({ format: "jwk" }), kty: "RSA", use: "sig", alg: "RS256", kid: "e2e" };

  // Ask for the sign-in on every authorization (unless it was just given), so a
  // test can switch identities in one browser.
  const policy = interactionPolicy.base();
  const { Check } = interactionPolicy;
  policy
    .get("login")
    ?.checks.add(
      new Check("e2e_always_login", "the test provider always asks who signs in", (ctx) =>
        ctx.oidc.result?.login ? Check.NO_NEED_TO_PROMPT : Check.REQUEST_PROMPT,
      ),
    );

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: options.redirectUris,
        grant_types: ["authorization_code"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_post",
      },
    ],
    jwks: { keys: [signingKey] },
    cookies: { keys: [randomBytes(32).toString("base64url")] },
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
    features: { devInteractions: { enabled: false } },
    // Our client must use PKCE: a request without it fails here.
    pkce: { required: () => true },
    ttl: { AccessToken: 600, AuthorizationCode: 60, Grant: 3600, IdToken: 600, Interaction: 600, Session: 3600 },
    interactions: { policy, url: async (_ctx, interaction) => `/interaction/${interaction.uid}` },
    findAccount: async (_ctx, id) => {
      const identity = parseAccountId(id);
      if (!identity) return undefined;
      return {
        accountId: id,
        claims: async () => ({
          sub: id,
          email: identity.email,
          email_verified: identity.emailVerified,
          name: identity.email.split("@")[0] ?? identity.email,
        }),
      };
    },
  });
  for (const event of ["server_error", "grant.error", "authorization.error", "userinfo.error"]) {
    provider.on(event, (...args: unknown[]) => {
      const error = args.find((a) => a instanceof Error);
      console.error(`oidc-provider ${event}: ${error instanceof Error ? error.message : "unknown"}`);
    });
  }

  const finish = async (req: IncomingMessage, res: ServerResponse, accountId: string, clientIdOfRequest: string) => {
    const grant = new provider.Grant({ accountId, clientId: clientIdOfRequest });
    grant.addOIDCScope("openid email profile");
    const grantId = await grant.save();
    await provider.interactionFinished(
      req,
      res,
      { login: { accountId }, consent: { grantId } },
      { mergeWithLastSubmission: false },
    );
  };

  const interaction = async (req: IncomingMessage, res: ServerResponse, uid: string, step: string | undefined) => {
    const details = await provider.interactionDetails(req, res);
    if (details.uid !== uid) return send(res, 400, "text/plain", "interaction mismatch");
    const requestClientId = String(details.params.client_id ?? "");
    if (req.method === "GET" && step === undefined) {
      if (details.prompt.name === "consent" && details.session?.accountId) {
        return finish(req, res, details.session.accountId, requestClientId);
      }
      const hint = typeof details.params.login_hint === "string" ? details.params.login_hint : "";
      return send(res, 200, "text/html", loginPage(uid, hint));
    }
    if (req.method === "POST" && step === "login") {
      const form = await readForm(req);
      const email = (form.get("email") ?? "").trim();
      if (!email.includes("@")) return send(res, 400, "text/html", loginPage(uid, email));
      return finish(req, res, testAccountId(email, form.get("email_verified") === "on"), requestClientId);
    }
    return send(res, 405, "text/plain", "method not allowed");
  };

  const oidc = provider.callback();
  handle = (req, res) => {
    const match = /^\/interaction\/([^/?]+)(?:\/([a-z]+))?(?:\?|$)/.exec(req.url ?? "");
    if (!match?.[1]) return oidc(req, res);
    interaction(req, res, decodeURIComponent(match[1]), match[2]).catch((error: unknown) => {
      console.error(`oidc test provider: ${error instanceof Error ? error.message : String(error)}`);
      if (!res.headersSent) send(res, 500, "text/plain", "interaction failed");
    });
  };

  return {
    issuer,
    discoveryUrl: `${issuer}/.well-known/openid-configuration`,
    clientId,
    clientSecret,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
