/**
 * `reset-password EMAIL`: a password reset link for an account, printed for the operator to
 * hand over, for a server without mail (CONTRACT.md §5 'Account recovery'). It is made by
 * the same better-auth flow as an emailed one (auth/password-reset.ts): it works once, for
 * an hour, its token kept only as a hash; using it ends every session of the account. The
 * account's security activity says that the operator made one. It runs beside the server,
 * on either engine, with the server's variables (BASE_URL makes the link's address).
 */
import { PASSWORD_RESET_LINK_MINUTES } from '../../shared/account-recovery';
import { emailAddress } from '../../shared/auth';
import { recordAuditEvent } from '../audit/audit-log';
import { createAuth } from '../auth/auth';
import { makeResetLink } from '../auth/password-reset-mail';
import { ConfigError, loadConfig } from '../config';
import { migrationStatus } from '../db/migrate';
import { createLogger } from '../logger';
import { typedAs, type Command, type CommandContext } from './command';
import { DataDirBusyError } from './data-dir-lock';
import { openServerDatabase, Refusal } from './passcode-command';

const usage = (context: CommandContext) => `Usage: ${typedAs(context)} reset-password EMAIL\n`;

export const resetPasswordCommand: Command = {
  args: 'EMAIL',
  summary: `a one-time password reset link for an account, valid for ${PASSWORD_RESET_LINK_MINUTES} minutes`,
  async run(args, context) {
    const [given, ...rest] = args;
    const email = emailAddress.safeParse(given ?? '');
    if (rest.length || !email.success) {
      context.stderr.write(
        `${given ? `"${given}" is not an email address.\n` : ''}${usage(context)}`,
      );
      return 2;
    }
    const address = email.data.toLowerCase();
    let opened: ReturnType<typeof openServerDatabase> | undefined;
    try {
      let config;
      try {
        config = loadConfig(context.env);
      } catch (error) {
        if (error instanceof ConfigError)
          throw new Refusal(`Configuration error: ${error.message}`);
        throw error;
      }
      opened = openServerDatabase(config);
      const { db, engine } = opened.database;
      if ((await migrationStatus(db)).pending.length) {
        throw new Refusal(
          'Start the server once (it brings the database up to date), then run this again.',
        );
      }
      const logger = createLogger(config.logLevel);
      const auth = createAuth({ db, engine, config, logger });
      const baseUrl = config.baseUrl ?? `http://localhost:${config.port}`;
      const made = await makeResetLink(auth, address, baseUrl);
      if (!made) throw new Refusal(`No account has the email ${address}.`);
      await recordAuditEvent(db, {
        event: 'password_reset_link_created',
        userId: made.userId,
        detail: 'command',
      });
      context.stdout.write(
        `A password reset link for ${address}:\n\n  ${made.link}\n\n` +
          `It works once, for ${PASSWORD_RESET_LINK_MINUTES} minutes. Hand it to the account's ` +
          'owner only: whoever opens it can choose the password. Using it signs the account ' +
          'out everywhere; two-factor sign-in stays as it is.\n' +
          (config.baseUrl
            ? ''
            : 'BASE_URL is not set: change the address if the server is reached by another.\n'),
      );
      return 0;
    } catch (error) {
      if (error instanceof Refusal || error instanceof DataDirBusyError) {
        context.stderr.write(`${error.message}\nNo link was made.\n`);
        return 1;
      }
      context.stderr.write(
        `No link was made: ${error instanceof Error ? error.message : String(error)}\n`,
      );
      return 1;
    } finally {
      await opened?.database.close();
      opened?.release();
    }
  },
};
