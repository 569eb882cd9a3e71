// The small part of `oidc-provider` 9 that tests/setup/oidc-provider.ts uses. The
// package ships no type declarations and @types/oidc-provider follows older majors.
declare module "oidc-provider" {
  import type { IncomingMessage, ServerResponse } from "node:http";

  export interface AccountClaims {
    sub: string;
    [claim: string]: unknown;
  }

  export interface Account {
    accountId: string;
    claims(use: string, scope: string): Promise<AccountClaims>;
  }

  export interface Interaction {
    uid: string;
    prompt: { name: string; reasons: string[] };
    params: Record<string, unknown>;
    session?: { accountId?: string };
  }

  export interface InteractionResult {
    login?: { accountId: string; remember?: boolean };
    consent?: { grantId: string };
    error?: string;
    error_description?: string;
  }

  export interface KoaLikeContext {
    oidc: { result?: InteractionResult };
  }

  export class Grant {
    constructor(init: { accountId: string; clientId: string });
    addOIDCScope(scope: string): void;
    save(): Promise<string>;
  }

  export interface ClientMetadata {
    client_id: string;
    client_secret: string;
    redirect_uris: string[];
    grant_types?: string[];
    response_types?: string[];
    token_endpoint_auth_method?: string;
  }

  export interface JsonWebKey {
    kty: string;
    [parameter: string]: unknown;
  }

  export interface Configuration {
    clients?: ClientMetadata[];
    jwks?: { keys: JsonWebKey[] };
    cookies?: { keys?: string[] };
    claims?: Record<string, string[] | null>;
    scopes?: string[];
    features?: Record<string, { enabled: boolean }>;
    interactions?: { url?: (ctx: KoaLikeContext, interaction: Interaction) => Promise<string>; policy?: Policy };
    findAccount?: (ctx: KoaLikeContext, id: string) => Promise<Account | undefined>;
    pkce?: { required?: () => boolean };
    ttl?: Record<string, number>;
  }

  export class Check {
    constructor(reason: string, description: string, check: (ctx: KoaLikeContext) => boolean | Promise<boolean>);
    static readonly REQUEST_PROMPT: true;
    static readonly NO_NEED_TO_PROMPT: false;
  }

  export interface Prompt {
    name: string;
    checks: Check[] & { add(check: Check, index?: number): void };
  }

  export type Policy = Prompt[] & { get(name: string): Prompt | undefined };

  export const interactionPolicy: { Check: typeof Check; base(): Policy };

  export class Provider {
    constructor(issuer: string, configuration: Configuration);
    readonly issuer: string;
    readonly Grant: typeof Grant;
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<Interaction>;
    interactionFinished(
      req: IncomingMessage,
      res: ServerResponse,
      result: InteractionResult,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>;
    on(event: string, listener: (...args: unknown[]) => void): this;
  }

  export default Provider;
}
