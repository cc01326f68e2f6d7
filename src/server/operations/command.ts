/** The shape of an operator command (`npm run kin -- <name> …`). */

export interface CommandContext {
  env: Record<string, string | undefined>;
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
}

export interface Command {
  /** The arguments after the name, as the usage shows them (`FILE`). */
  args: string;
  summary: string;
  /** The exit code: 0 done, 1 failed or refused, 2 used wrongly. */
  run(args: string[], context: CommandContext): Promise<number>;
}
