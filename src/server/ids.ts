/** Record ids: UUIDv7, time-ordered, so new rows land together in the primary-key index. */
import { v7 } from 'uuid';

export const newId = (): string => v7();

/** The current moment, as every created_at/updated_at column stores it. */
export const nowTimestamp = (): string => new Date().toISOString();

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An id from a URL that cannot name any row is answered as a missing row, not an error. */
export const isId = (value: string): boolean => UUID_PATTERN.test(value);
