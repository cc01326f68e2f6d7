/**
 * The part of `oidc-provider` (which ships no types) that the tests' authorization servers
 * use (test/openid-provider.ts, test/smart-server.ts, test/authorization-server.ts).
 */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export interface KoaContext {
    path: string;
    method: string;
    status: number;
    body: unknown;
    /** Sets a response header. */
    set(header: string, value: string): void;
    response: { get(header: string): string };
    /** The provider's own state of the request, once its routes have run. */
    oidc?: { params?: Record<string, unknown> };
  }

  export interface Interaction {
    uid: string;
    params: Record<string, unknown>;
  }

  export interface Account {
    accountId: string;
    claims: () => Record<string, unknown> | Promise<Record<string, unknown>>;
  }

  export interface ClientInfo {
    clientId: string;
  }

  export interface ResourceServerInfo {
    scope: string;
    audience?: string;
    accessTokenTTL?: number;
    accessTokenFormat?: 'opaque' | 'jwt';
  }

  export interface Configuration {
    clients?: Array<Record<string, unknown>>;
    jwks?: { keys: Array<Record<string, unknown>> };
    claims?: Record<string, string[]>;
    scopes?: string[];
    features?: Record<string, unknown> & {
      resourceIndicators?: {
        enabled: boolean;
        defaultResource?: (ctx: KoaContext) => string | Promise<string>;
        useGrantedResource?: () => boolean;
        getResourceServerInfo?: (
          ctx: KoaContext,
          resource: string,
          client: ClientInfo,
        ) => ResourceServerInfo | Promise<ResourceServerInfo>;
      };
    };
    extraParams?: Record<
      string,
      ((ctx: KoaContext, value: unknown, client: ClientInfo) => void | Promise<void>) | null
    >;
    conformIdTokenClaims?: boolean;
    pkce?: { required?: () => boolean };
    cookies?: { keys?: string[] };
    interactions?: { url?: (ctx: KoaContext, interaction: Interaction) => string };
    findAccount?: (
      ctx: KoaContext,
      sub: string,
    ) => Account | undefined | Promise<Account | undefined>;
    issueRefreshToken?: (
      ctx: KoaContext,
      client: { grantTypeAllowed(type: string): boolean },
      source: { scopes: Set<string> },
    ) => boolean | Promise<boolean>;
    rotateRefreshToken?: boolean;
    ttl?: Record<string, number | (() => number)>;
  }

  export class Grant {
    constructor(properties: { accountId: string; clientId: string });
    accountId: string;
    addOIDCScope(scope: string): void;
    addResourceScope(resource: string, scope: string): void;
    save(): Promise<string>;
  }

  /** An access or refresh token, as the provider keeps it. */
  export interface StoredToken {
    jti: string;
    accountId: string;
    clientId: string;
    grantId: string;
    scope?: string;
    /** Seconds since the epoch. */
    iat: number;
    exp: number;
    destroy(): Promise<void>;
  }

  interface TokenModel {
    find(value: string): Promise<StoredToken | undefined>;
  }

  export class InvalidRequest extends Error {
    constructor(description: string);
  }

  export const errors: { InvalidRequest: typeof InvalidRequest };

  export default class Provider {
    constructor(issuer: string, configuration?: Configuration);
    Grant: typeof Grant;
    AccessToken: TokenModel;
    RefreshToken: TokenModel;
    use(middleware: (ctx: KoaContext, next: () => Promise<void>) => Promise<void>): void;
    on(
      event: 'access_token.saved' | 'refresh_token.saved',
      listener: (token: StoredToken) => void,
    ): void;
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
