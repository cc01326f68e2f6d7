/** The `npm start` entry point. */
import path from 'node:path';
import { ConfigError, loadConfig } from './config';
import { createLogger } from './logger';
import { PASSCODE_FILE_NAME } from './operations/secrets';
import { startServer } from './server';

const SHUTDOWN_GRACE_MS = 10_000;

async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`Configuration error: ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const logger = createLogger(config.logLevel);
  const server = await startServer(config, logger);

  // Signals are handled before the server says it is running: told to stop from then on,
  // it always stops gracefully.
  const shutdown = (signal: string) => {
    logger.info({ signal }, 'shutting down');
    setTimeout(() => {
      logger.error('requests did not finish in time; exiting');
      process.exit(1);
    }, SHUTDOWN_GRACE_MS).unref();
    server.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'error while stopping');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));

  const passcodeFile = path.join(config.dataDir, PASSCODE_FILE_NAME);
  if (config.familyPasscodeGenerated) {
    // Printed once, on the start that made it, and never logged: the logs carry no secret.
    process.stdout.write(
      `\n  Friends & Family Passcode: ${config.familyPasscode}\n` +
        `  (kept in ${passcodeFile}; set FAMILY_PASSCODE to choose your own)\n\n`,
    );
  } else if (!process.env.FAMILY_PASSCODE) {
    process.stdout.write(`\n  The Friends & Family Passcode is kept in ${passcodeFile}\n\n`);
  }
  process.stdout.write(
    `  Kin Health is running at ${server.url.replace('127.0.0.1', 'localhost')}\n\n`,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(
    `Kin Health failed to start: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
});
