/**
 * The HTTP application: the API under /api and the web app beside it, on one origin.
 */
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { sql } from 'kysely';
import type { AccountRecoveryOptions } from '../shared/account-recovery';
import type { SignInOptions } from '../shared/sign-in-options';
import { MAX_SHARE_LINK_JWE_CHARS } from '../shared/share-links';
import type { Auth } from './auth/auth';
import { withAuthRequestContext, type AuthRequestContext } from './auth/auth-request-context';
import { isAllowedAuthRoute } from './auth/auth-routes';
import { sessionLifetime } from './auth/session-lifetime';
import { emailOf } from './auth/credential-limits';
import { recordAuditEventOrLog } from './audit/audit-log';
import type { AppConfig } from './config';
import type { Database } from './db/database';
import { createFamilyMemberRepository } from './family-members/family-member-repository';
import { recordClientIp } from './http/client-ip';
import { every } from 'hono/combine';
import type { AppEnv } from './http/env';
import { handleError, notFound, UNAVAILABLE_MESSAGE } from './http/errors';
import { key, tr } from '../shared/i18n/translate';
import { languageInForce, requestLanguage, translateMessage } from './i18n/server-language';
import { requestOrigin, sameOriginWrites, securityHeaders } from './http/browser-protections';
import { requestLog } from './http/request-log';
import { requireSession } from './http/session';
import { mountWebApp } from './http/static-files';
import type { Logger } from './logger';
import { createAccountRepository } from './account/account-repository';
import { productRoutes, type ProductRouteDependencies } from './api-routes';
import { heavyJobs, type HeavyJobs } from './runtime/heavy-jobs';
import { createAccessReader, ownAccess, type Access } from './access/scope';
import { createHouseholdRepository } from './household/household-repository';
import { mailAcceptanceCode } from './household/acceptance-mail';
import type { MailOutbox } from './mail/mail-queue';
import { CALENDAR_FEED_PATH, calendarFeedRoutes } from './calendar/calendar-routes';
import { freshProofChecker } from './account/fresh-proof';
import { createAttemptLimits, type AttemptLimits } from './limits/attempt-limits';
import { IMPORT_LIMIT } from './data-transfer/data-transfer-routes';
import { createPasswordHasher } from './auth/password-hashing';
import { createShareLinkStore } from './share-links/share-link-store';
import {
  SHARE_API_PREFIX,
  SHARE_LINK_REQUEST_LIMIT,
  shlRoutes,
  type ShareLinkRouteDependencies,
} from './share-links/share-link-routes';
import { documentStoreOf } from './documents/document-files';
import { createDocumentRecords } from './documents/document-records';
import { createDocumentRepository } from './documents/document-repository';
import { documentDeriveThread } from './documents/document-derive-thread';
import type { DocumentIntake } from './documents/document-intake';
import { portalConnections } from './connections/connections';
import { CALLBACK_LIMIT } from './connections/connection-routes';
import { CONNECTIONS_CALLBACK_PATH } from '../shared/connections';
import { createTimelineRepository } from './timeline/timeline-repository';
import { createSearchRepository } from './search/search-repository';
import {
  DOSE_ACTION_LIMIT,
  DOSE_ACTIONS_PATH,
  doseActionRoutes,
} from './notifications/dose-actions';

export const MAX_BODY_BYTES = 1024 * 1024;
export const MAX_SHARE_LINK_BYTES = MAX_SHARE_LINK_JWE_CHARS + 1024 * 1024;

export interface AppDependencies {
  database: Database;
  auth: Auth;
  config: Pick<
    AppConfig,
    | 'baseUrl'
    | 'trustProxy'
    | 'webDir'
    | 'rateLimit'
    | 'sessionMaxAgeDays'
    | 'passwordHashing'
    | 'vapid'
    | 'pushEndpoints'
    | 'mail'
    | 'passkeys'
    | 'singleSignOn'
    | 'documentQuotaMb'
    | 'smartProviders'
    | 'connectionsDueCheckMs'
    | 'authSecret'
    | 'notifyAllowedHosts'
    | 'memory'
  >;
  logger: Logger;
  /** Where the app's mails are queued; none: mail is not set up. */
  outbox?: MailOutbox;
  /**
   * Where heavy work waits its turn, shared with the server's document-text worker (none:
   * the app's own, of config.memory's size).
   */
  heavyJobs?: HeavyJobs;
}

/** Reads a JSON body without consuming the request (better-auth reads it again). */
async function bodyOf(request: Request): Promise<unknown> {
  try {
    return await request.clone().json();
  } catch {
    return null;
  }
}

const AUTH_BASE_PATH = '/api/auth';

/**
 * better-auth's refusal in the request's language: its own messages ('Invalid email or
 * password') and the product's, made in its hooks, when the catalogue has them.
 */
async function inRequestLanguage(response: Response): Promise<Response> {
  if (
    response.status < 400 ||
    languageInForce() === 'en' ||
    !response.headers.get('content-type')?.includes('application/json')
  ) {
    return response;
  }
  const body: unknown = await response
    .clone()
    .json()
    .catch(() => null);
  if (
    !body ||
    typeof body !== 'object' ||
    typeof (body as { message?: unknown }).message !== 'string'
  ) {
    return response;
  }
  const message = (body as { message: string }).message;
  const translated = translateMessage(message);
  if (translated === message) return response;
  const headers = new Headers(response.headers);
  headers.delete('content-length');
  return new Response(JSON.stringify({ ...body, message: translated }), {
    status: response.status,
    statusText: response.statusText,
    headers,
  });
}

/** A bound on a request's body: a declared length checked at once, a stream as it comes. */
function bodyBound(maxBytes: number, what: string): MiddlewareHandler<AppEnv> {
  const tooLarge = (c: Context) =>
    c.json(
      {
        message: tr('{what} is too large (at most {size} MB)', {
          what: tr(what),
          size: maxBytes / 1024 / 1024,
        }),
      },
      413,
    );
  const limitStream = bodyLimit({ maxSize: maxBytes, onError: tooLarge });
  return async (c, next) => {
    // Hono's limit asks every request for its body, which builds the whole web Request,
    // and from then on the body can only be read through a web stream. A declared length
    // is checked as Hono checks it, so only a streamed body is counted.
    const length = c.req.header('content-length');
    if (length !== undefined && c.req.header('transfer-encoding') === undefined) {
      return Number.parseInt(length, 10) > maxBytes ? tooLarge(c) : next();
    }
    return limitStream(c, next);
  };
}

/** The checks every request meets first, in this order: language, log, headers, then /api's own. */
function useRequestMiddleware(app: Hono<AppEnv>, { config, logger }: AppDependencies) {
  app.use(
    '*',
    // Every answer in the request's language (the web app sends its own as Accept-Language).
    requestLanguage(),
    requestLog(logger, [SHARE_API_PREFIX, `${CALENDAR_FEED_PATH}/`, `${DOSE_ACTIONS_PATH}/`]),
    securityHeaders(config),
  );
  useApiMiddleware(app, config);
}

/**
 * What every /api request meets before its route, in one middleware (each layer of Hono's
 * chain costs a read its dispatch): its path checked, its client's address recorded, and a
 * write's origin and body checked.
 */
function useApiMiddleware(app: Hono<AppEnv>, config: AppDependencies['config']) {
  const sameOrigin = sameOriginWrites(config);
  const limitBody = bodyBound(MAX_BODY_BYTES, key('The request body'));
  // A share link carries a person's whole history, encrypted: a bound of its own.
  const limitShareLink = bodyBound(MAX_SHARE_LINK_BYTES, key('The shared records'));
  const writeChecks = every(
    (c, next) =>
      // A share link's manifest is asked for from any origin (SMART Health Links), and a
      // reminder's button is pressed from wherever the notification is: neither carries a
      // session, so there is no ambient authority to forge.
      c.req.path.startsWith(SHARE_API_PREFIX) || c.req.path.startsWith(`${DOSE_ACTIONS_PATH}/`)
        ? next()
        : sameOrigin(c, next),
    (c, next) =>
      // An import file has a bound of its own, set by its route. A document's upload is
      // bounded by its route as it streams in (documents/document-routes.ts).
      c.req.path === '/api/import' || (c.req.method === 'POST' && c.req.path === '/api/documents')
        ? next()
        : c.req.path === '/api/share-links'
          ? limitShareLink(c, next)
          : limitBody(c, next),
  );
  app.use('/api/*', (c, next) => {
    // No id, name or path of the product holds a NUL character, and PostgreSQL refuses one
    // in any text it is sent: a path with one (%00) names nothing there is.
    const path = c.req.path;
    if (path.includes('%00') || path.includes('\u0000')) throw notFound();
    recordClientIp(c, config.trustProxy);
    // A GET has no body and changes nothing.
    return c.req.method === 'GET' || c.req.method === 'HEAD' ? next() : writeChecks(c, next);
  });
}

/** What is asked without a session: health, sign-in choices, the keys that verify tokens. */
function mountOpenRoutes(
  app: Hono<AppEnv>,
  { auth, config }: AppDependencies,
  databaseAnswers: () => Promise<boolean>,
) {
  app.get('/api/health', async (c) =>
    (await databaseAnswers()) ? c.json({ status: 'ok' }) : c.json({ status: 'unavailable' }, 503),
  );

  // Whether the sign-in screen can offer a reset link by email (without a session).
  app.get('/api/account-recovery', (c) =>
    c.json({ email: config.mail !== null } satisfies AccountRecoveryOptions),
  );

  // What the Sign In tab offers besides the password, without a session: passkeys unless
  // PASSKEYS=off, single sign-on when OIDC_* is set up.
  app.get('/api/sign-in-options', (c) =>
    c.json({
      passkeys: config.passkeys,
      singleSignOn: config.singleSignOn ? { name: config.singleSignOn.name } : null,
    } satisfies SignInOptions),
  );

  // The public keys that verify the tokens better-auth signs (its /api/auth/jwks), at the
  // address verifiers look for them.
  app.get('/.well-known/jwks.json', async (c) => {
    const jwks = await auth.api.getJwks({ headers: c.req.raw.headers });
    c.header('Cache-Control', 'public, max-age=300');
    return c.json(jwks);
  });
}

/** better-auth's endpoints under /api/auth, those the product calls and no others. */
function mountAuth(
  app: Hono<AppEnv>,
  { auth, database, logger }: AppDependencies,
  databaseAnswers: () => Promise<boolean>,
) {
  app.all('/api/auth/*', async (c) => {
    const request = c.req.raw;
    // Only the endpoints the product calls are reachable; better-auth defines many more.
    if (
      !isAllowedAuthRoute(
        request.method,
        new URL(request.url).pathname.slice(AUTH_BASE_PATH.length),
      )
    ) {
      return c.json({ message: tr('Not found') }, 404);
    }
    const body = request.method === 'POST' ? await bodyOf(request) : null;
    const passcode = (body as { passcode?: unknown } | null)?.passcode;
    const context: AuthRequestContext = {
      passcode: typeof passcode === 'string' ? passcode : null,
    };
    const response = await withAuthRequestContext(context, () => auth.handler(request));
    // better-auth's per-address limit answers before any hook runs: its refusals are
    // written down here (the per-account ones write their own).
    if (response.status === 429 && response.headers.has('x-retry-after')) {
      await recordAuditEventOrLog(database.db, logger, request.headers, {
        event: 'too_many_attempts',
        email: emailOf(body),
        detail: c.req.path.slice(AUTH_BASE_PATH.length + 1),
      });
    }
    // better-auth answers any failure with a generic 500; when the cause is the database
    // being out of reach, say so, as every other route does.
    if (response.status >= 500 && !(await databaseAnswers())) {
      return c.json({ message: translateMessage(UNAVAILABLE_MESSAGE) }, 503);
    }
    return inRequestLanguage(response);
  });
}

/**
 * The routes without a session, each with its own key: a share link's manifest and its
 * file, a calendar feed, a reminder's dose button.
 */
function mountTokenRoutes(
  app: Hono<AppEnv>,
  { database, config, logger }: AppDependencies,
  shareLinks: ShareLinkRouteDependencies,
  limits: AttemptLimits,
) {
  const { db } = database;
  app.route(
    SHARE_API_PREFIX.slice(0, -1),
    shlRoutes({
      ...shareLinks,
      // Per address and per link, when limits are on: a viewer opens a link a few times.
      limits: createAttemptLimits(db, config.rateLimit ? SHARE_LINK_REQUEST_LIMIT : null),
    }),
  );
  // Read by calendar apps, which have no session: the token in the path is the key.
  app.route(CALENDAR_FEED_PATH, calendarFeedRoutes(db, limits, logger));
  // Pressed in a notification (ntfy, a webhook's receiver): the token in the path is the key.
  app.route(
    DOSE_ACTIONS_PATH,
    doseActionRoutes(
      db,
      createAttemptLimits(db, config.rateLimit ? DOSE_ACTION_LIMIT : null),
      logger,
    ),
  );
}

/** The documents' store, one thread that derives their pages and one quota for every intake. */
function documentIntakeOf({ database, config, heavyJobs: heavy, logger }: AppDependencies) {
  const store = documentStoreOf(database);
  const attachments = createDocumentRecords(database.db);
  const derive = documentDeriveThread(config.memory);
  const heavyQueue = heavy ?? heavyJobs(config.memory.heavyJobsAtOnce);
  // On a small machine the idle thumbnail process's memory is the heavy job's (decision 0074).
  if (config.memory.restForHeavyJobs) heavyQueue.onBegin(derive.rest);
  const intake: DocumentIntake = {
    database,
    store,
    documents: createDocumentRepository(database.db, store, attachments),
    derive,
    quotaBytes: config.documentQuotaMb * 1024 * 1024,
    heavy: heavyQueue,
    logger,
  };
  return { intake, attachments };
}

/** The API behind a session: the signed-in user, what they may read, then every route. */
function sessionApi(
  { database, auth, config }: AppDependencies,
  routes: Omit<ProductRouteDependencies, 'db' | 'auth'>,
) {
  const { db } = database;
  const accessOf = createAccessReader(db);
  const session = requireSession(auth, db, sessionLifetime(config.sessionMaxAgeDays));
  // What the user may read is looked up once, when a route first asks (never, for a user no
  // one shared a person with). Set as the session lets the request on: one layer, not two.
  const withAccess = (c: Context<AppEnv>, next: () => Promise<void>) => {
    let access: Promise<Access> | undefined;
    const user = c.var.user;
    c.set('access', () =>
      user.hasGrants === false
        ? Promise.resolve(ownAccess(user.id))
        : (access ??= accessOf(user.id)),
    );
    return next();
  };
  return new Hono<AppEnv>()
    .use((c, next) => session(c, () => withAccess(c, next)))
    .route('/', productRoutes({ db, auth, ...routes }));
}

export function createApp(deps: AppDependencies) {
  const { database, auth, config, logger, outbox } = deps;
  const { db } = database;
  const members = createFamilyMemberRepository(db);
  const accounts = createAccountRepository(db);
  const limits = createAttemptLimits(db, config.rateLimit);
  const requireFreshProof = freshProofChecker({ db, accounts, auth, limits, logger });
  const app = new Hono<AppEnv>();

  app.onError(handleError(logger));
  useRequestMiddleware(app, deps);

  const databaseAnswers = async () => {
    try {
      await sql`select 1`.execute(db);
      return true;
    } catch {
      return false;
    }
  };
  mountOpenRoutes(app, deps, databaseAnswers);
  mountAuth(app, deps, databaseAnswers);

  const origin = (request: Request) => requestOrigin(request, config);
  const shareLinks: ShareLinkRouteDependencies = {
    db,
    store: createShareLinkStore(db),
    hasher: createPasswordHasher(config.passwordHashing),
    origin,
  };
  mountTokenRoutes(app, deps, shareLinks, limits);

  const { intake: documentIntake, attachments } = documentIntakeOf(deps);
  const connections = portalConnections({
    db,
    intake: documentIntake,
    providers: config.smartProviders,
    dueCheckMs: config.connectionsDueCheckMs,
    authSecret: config.authSecret,
    logger,
    limits: createAttemptLimits(db, config.rateLimit ? CALLBACK_LIMIT : null),
    redirectUri: (request) => (config.baseUrl ?? origin(request)) + CONNECTIONS_CALLBACK_PATH,
  });
  const household = createHouseholdRepository(db, {
    limits,
    deliverAcceptanceCode: mailAcceptanceCode(db, outbox),
  });
  const api = sessionApi(deps, {
    logger,
    accounts,
    members,
    timeline: createTimelineRepository(db),
    search: createSearchRepository(db, database.engine),
    household,
    documents: documentIntake.documents,
    documentIntake,
    attachments,
    requireFreshProof,
    publicUrl: config.baseUrl,
    shareLinks,
    reminders: { vapidPublicKey: config.vapid.publicKey, pushEndpoints: config.pushEndpoints },
    notifications: {
      allowedHosts: config.notifyAllowedHosts,
      baseUrl: config.baseUrl,
      authSecret: config.authSecret,
      origin,
    },
    importLimits: createAttemptLimits(db, config.rateLimit ? IMPORT_LIMIT : null),
    connections,
  });
  app.route('/api', api);
  app.all('/api/*', (c) => c.json({ message: tr('Not found') }, 404));

  if (!mountWebApp(app, config.webDir)) {
    app.get('*', (c) =>
      c.text('The web app is not built yet: run `npm run build` (npm start does it for you).', 503),
    );
  }
  return app;
}

export type App = ReturnType<typeof createApp>;
