/**
 * The part of `oidc-provider` (which ships no types) that the tests' OpenID Provider uses
 * (test/openid-provider.ts).
 */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  interface KoaContext {
    path: string;
    status: number;
    body: unknown;
  }

  interface Interaction {
    uid: string;
    params: Record<string, unknown>;
  }

  interface Account {
    accountId: string;
    claims: () => Record<string, unknown> | Promise<Record<string, unknown>>;
  }

  interface Configuration {
    clients?: Array<Record<string, unknown>>;
    jwks?: { keys: Array<Record<string, unknown>> };
    claims?: Record<string, string[]>;
    scopes?: string[];
    features?: Record<string, unknown>;
    conformIdTokenClaims?: boolean;
    pkce?: { required?: () => boolean };
    cookies?: { keys?: string[] };
    interactions?: { url?: (ctx: KoaContext, interaction: Interaction) => string };
    findAccount?: (
      ctx: KoaContext,
      sub: string,
    ) => Account | undefined | Promise<Account | undefined>;
    ttl?: Record<string, number | (() => number)>;
  }

  class Grant {
    constructor(properties: { accountId: string; clientId: string });
    addOIDCScope(scope: string): void;
    save(): Promise<string>;
  }

  export default class Provider {
    constructor(issuer: string, configuration?: Configuration);
    Grant: typeof Grant;
    use(middleware: (ctx: KoaContext, next: () => Promise<void>) => Promise<void>): void;
    on(event: string, listener: (ctx: KoaContext, error: unknown) => void): void;
    callback(): (request: IncomingMessage, response: ServerResponse) => void;
    interactionDetails(request: IncomingMessage, response: ServerResponse): Promise<Interaction>;
    interactionFinished(
      request: IncomingMessage,
      response: ServerResponse,
      result: Record<string, unknown>,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>;
  }
}
