/** The shape of an operator command (`npm run kin -- <name> …`, or `kin <name> …` in the image). */

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

/**
 * How the operator types a command here, for the usage lines: `npm run kin --` in a checkout;
 * the container image sets `KIN_COMMAND=kin`, the name of its own wrapper.
 */
export function typedAs(context: CommandContext): string {
  return context.env.KIN_COMMAND || 'npm run kin --';
}
