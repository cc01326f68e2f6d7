/**
 * Starting and stopping the product: open the database, run the migrations, make the
 * configured Friends & Family Passcode the server's, serve, and on SIGTERM/SIGINT let
 * in-flight requests finish before closing the database.
 */
import type { Server as HttpServer } from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { createApp } from './app';
import { pruneAuditLog, scheduleAuditPruning } from './audit/audit-log';
import { createAuth } from './auth/auth';
import { settleFamilyPasscode } from './auth/family-passcode';
import { createPasswordHasher } from './auth/password-hashing';
import type { AppConfig } from './config';
import { openDatabase } from './db/database';
import { migrateToLatest } from './db/migrate';
import type { Logger } from './logger';
import { backUpBeforeMigrating, startAutomaticBackups } from './operations/automatic-backups';
import { holdSharedLock } from './operations/data-dir-lock';
import { createReminderJob } from './reminders/reminder-job';
import { createMailOutbox, createMailSender } from './mail/mail-queue';
import { resetMailPreparer } from './auth/password-reset-mail';
import { openDocumentFile } from './documents/document-files';
import { startDocumentTextWorker } from './documents/text/document-text';
import { createNotificationChannels } from './notifications/notification-queue';
import { heavyJobs } from './runtime/heavy-jobs';
import { giveMemoryBackAfter } from './runtime/collect-garbage';

/** How long a stopping server still takes requests already sent to it, before it stops listening. */
const SHUTDOWN_SETTLE_MS = 500;

/**
 * How long a kept-alive connection may sit idle before the server closes it: longer than a
 * proxy in front keeps its own (nginx's 60 s), so that the server never closes one just as a
 * client sends a request on it, which that client gets as a reset connection. Node's default
 * of 5 s did that to a browser test's request on a busy machine.
 */
export const KEEP_ALIVE_MS = 65_000;

export interface RunningServer {
  url: string;
  stop(): Promise<void>;
}

export async function startServer(config: AppConfig, logger: Logger): Promise<RunningServer> {
  // On SQLite, held while the server runs: `npm run kin -- restore` refuses to run meanwhile.
  const dataDirLock = config.databaseUrl ? null : holdSharedLock(config.dataDir);
  const database = openDatabase(config);
  await backUpBeforeMigrating(database, config.backup, logger);
  const applied = await migrateToLatest(database.db);
  if (applied.length) logger.info({ migrations: applied }, 'database migrated');
  await settleFamilyPasscode(database.db, {
    passcode: config.familyPasscode,
    from: config.familyPasscodeFrom,
    hasher: createPasswordHasher(config.passwordHashing),
    logger,
  });

  // Mail (SMTP_URL): queued by requests, sent by this instance's sender (mail/mail-queue.ts).
  const outbox = createMailOutbox(database.db, config.mail !== null);
  const auth = createAuth({ db: database.db, engine: database.engine, config, logger, outbox });
  // Imports, portals' records and documents' text take turns by the memory budget.
  const heavy = heavyJobs(config.memory.heavyJobsAtOnce);
  const backups = database.file
    ? startAutomaticBackups({
        databaseFile: database.file,
        config: config.backup,
        logger,
        heavyJobs: heavy,
      })
    : null;
  // What a heavy job's work on this thread grew, given back once it ends (decision 0081).
  const stopGivingBack = giveMemoryBackAfter(heavy, logger);
  const app = createApp({ database, auth, config, logger, outbox, heavyJobs: heavy });
  const stopPruning = scheduleAuditPruning(
    () => pruneAuditLog(database.db, config.auditRetentionDays),
    logger,
  );

  // The account's ntfy topic and webhook: queued by the reminder job, sent by this
  // instance's sender (notifications/notification-queue.ts).
  const { outbox: notifications, sender } = createNotificationChannels({
    db: database.db,
    authSecret: config.authSecret,
    allowedHosts: config.notifyAllowedHosts,
    baseUrl: config.baseUrl,
    logger,
  });
  const channelSender = sender.start();

  // Reminders by web push: at start (catching up on the last half hour), then every minute.
  const reminders = createReminderJob({
    db: database.db,
    vapid: config.vapid,
    pushEndpoints: config.pushEndpoints,
    logger,
    outbox,
    notifications,
  }).start();
  const mail =
    config.mail && config.baseUrl
      ? createMailSender({
          db: database.db,
          outbox,
          mail: config.mail,
          baseUrl: config.baseUrl,
          logger,
          prepare: { 'password-reset': resetMailPreparer(auth, config.baseUrl) },
        }).start()
      : null;

  // Documents' text, read off the request thread one page at a time, for search.
  const stopDocumentText = startDocumentTextWorker({
    db: database.db,
    engine: database.engine,
    openFile: (documentId) => openDocumentFile(database, documentId),
    dataDir: config.dataDir,
    languages: config.ocrLanguages,
    logger,
    memory: config.memory,
    heavyJobs: heavy,
  });

  const server: ServerType = await new Promise((resolve) => {
    const started = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, () =>
      resolve(started),
    );
  });
  const http = server as HttpServer;
  http.keepAliveTimeout = KEEP_ALIVE_MS;
  // Headers may take as long as the connection may idle (Node's rule: longer than it).
  http.headersTimeout = KEEP_ALIVE_MS + 1_000;
  const address = server.address() as AddressInfo;
  const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${address.port}`;
  logger.info({ url, engine: database.engine }, 'server listening');

  let stopping: Promise<void> | null = null;
  return {
    url,
    stop() {
      stopping ??= (async () => {
        // Answers from now on tell clients not to reuse their connection.
        http.on('request', (_request, response) => response.setHeader('connection', 'close'));
        // A request may already be on its way: over a kept-alive connection, or over a new
        // one the system has accepted on the server's behalf but the server has not taken
        // yet (closing the listener would reset it). Such requests get a moment to arrive,
        // and are answered, before the server stops listening and closes idle connections.
        await new Promise((resolve) => setTimeout(resolve, SHUTDOWN_SETTLE_MS));
        // Stop listening. http.Server's own close() would also drop every idle connection at
        // once (Node 19 on); they are closed below, and again as each one falls idle.
        const closed = new Promise<void>((resolve) =>
          net.Server.prototype.close.call(http, () => resolve()),
        );
        http.closeIdleConnections();
        const sweep = setInterval(() => http.closeIdleConnections(), 100);
        await closed;
        clearInterval(sweep);
        stopPruning();
        stopGivingBack();
        await reminders.stop();
        await channelSender.stop();
        await stopDocumentText();
        await mail?.stop();
        await backups?.stop();
        await database.close();
        dataDirLock?.release();
        logger.info('server stopped');
      })();
      return stopping;
    },
  };
}
