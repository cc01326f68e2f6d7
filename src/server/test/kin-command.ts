/**
 * Runs an operator command: the command built as the server is built (test/built-server-setup.ts),
 * or, `asTyped`, as an operator types it: `npm run kin -- …`, from the repo root.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { inject } from 'vitest';

export interface CommandResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runKin(
  args: string[],
  env: Record<string, string>,
  options: { asTyped?: boolean } = {},
): Promise<CommandResult> {
  const [command, commandArgs] = options.asTyped
    ? ['npm', ['run', 'kin', '--', ...args]]
    : [process.execPath, [path.join(inject('builtServerDir'), 'cli.js'), ...args]];
  return new Promise((resolve, reject) => {
    const child = spawn(command, commandArgs, {
      // The server's variables, and none of the test runner's database settings.
      env: { ...process.env, DATABASE_URL: '', LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The last line a command printed: the path, for `backup`. */
export function lastLine(text: string): string {
  return text.trim().split('\n').at(-1) ?? '';
}
