/**
 * The `npm run kin -- <command>` entry point: the operator commands of CONTRACT.md §1. Run
 * from the sources through tsx (`node --import tsx`), so a fresh clone needs `npm ci` and no
 * build, and a command can never run older code than the checkout it is typed in. The build
 * puts it beside the server too (dist/server/cli.js): the container image's `kin`.
 */
import { backupCommands } from './operations/backup-commands';
import { typedAs, type Command, type CommandContext } from './operations/command';
import { passcodeCommand } from './operations/passcode-command';
import { resetPasswordCommand } from './operations/reset-password-command';

const commands: Record<string, Command> = {
  ...backupCommands,
  passcode: passcodeCommand,
  'reset-password': resetPasswordCommand,
};

function usage(context: CommandContext): string {
  const width = Math.max(...Object.entries(commands).map(([n, c]) => `${n} ${c.args}`.length));
  const lines = Object.entries(commands).map(
    ([name, command]) => `  ${`${name} ${command.args}`.padEnd(width)}  ${command.summary}`,
  );
  return `Usage: ${typedAs(context)} <command>\n\nCommands:\n${lines.join('\n')}\n`;
}

export async function runCli(argv: string[], context: CommandContext): Promise<number> {
  const [name, ...args] = argv;
  const command = name && Object.hasOwn(commands, name) ? commands[name] : undefined;
  if (!command) {
    if (name && !['help', '--help', '-h'].includes(name)) {
      context.stderr.write(`Unknown command "${name}".\n\n`);
    }
    context.stderr.write(usage(context));
    return name === 'help' || name === '--help' || name === '-h' ? 0 : 2;
  }
  return command.run(args, context);
}

runCli(process.argv.slice(2), {
  env: process.env,
  stdout: process.stdout,
  stderr: process.stderr,
}).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : error}\n`);
    process.exitCode = 1;
  },
);
