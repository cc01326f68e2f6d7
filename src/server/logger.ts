/**
 * Structured logs (pino). Request logs carry method, route, status and timing only: never
 * bodies, cookies, passwords, passcodes, tokens or record contents.
 */
import { pino, type DestinationStream, type Logger } from 'pino';

export type { Logger };

export const REDACTED_PATHS = [
  'password',
  'passcode',
  'token',
  'secret',
  '*.password',
  '*.passcode',
  '*.token',
  '*.secret',
  'headers.cookie',
  'headers.authorization',
  '*.headers.cookie',
  '*.headers.authorization',
];

export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'kin-health' },
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    destination,
  );
}
