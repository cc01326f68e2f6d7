/**
 * A refusal of the API, as both sides know it: the status, a message a person can read
 * (naming the field when one is at fault) and the field. The server throws it and answers
 * with its body; the web client rebuilds it from that body.
 */
import { key } from './i18n/translate';
/** What a body of the wrong kind (a string, an array, a number) is told, on every route. */
export const BODY_NOT_OBJECT = key('The request body must be a JSON object');

export interface ErrorBody {
  message: string;
  field?: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }

  toBody(): ErrorBody {
    return { message: this.message, ...(this.field ? { field: this.field } : {}) };
  }
}
