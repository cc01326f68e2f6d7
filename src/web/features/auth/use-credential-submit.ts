/**
 * The submit of the sign-in, sign-up and second-factor forms: checks the values against the
 * shared schema (the first problem shows as an 'Error' toast), sends them, and keeps the
 * button pending until the send ends. A refusal shows as an 'Error' toast with the server's
 * message, unless the form handles it itself.
 *
 * The schema may come as a loader: the sign-in screen is the first screen most visits load,
 * and the validation library need not be part of it. `prepare` starts loading it (call it
 * when the user starts on the form); a submit waits for it.
 */
import { useState, type FormEvent } from 'react';
import type { ZodType } from 'zod';
import { tr } from '../../../shared/i18n/translate';
import { toasts } from '../../../shared/messages';
import { showError } from '../../lib/toast';
import { parseOrShowError } from '../../lib/validate';

type SchemaSource<T> = ZodType<T> | (() => Promise<ZodType<T>>);

export function useCredentialSubmit<T>(
  source: SchemaSource<T>,
  send: (data: T) => Promise<void>,
  onRefused: (error: unknown) => void = (error) => showError(tr(toasts.error), error),
) {
  const [pending, setPending] = useState(false);
  const load = async () => (typeof source === 'function' ? source() : source);
  function prepare() {
    void load();
  }
  async function submit(event: FormEvent, values: unknown) {
    event.preventDefault();
    const data = parseOrShowError(await load(), values, tr(toasts.error));
    if (data === undefined) return;
    setPending(true);
    try {
      await send(data);
    } catch (error) {
      setPending(false);
      onRefused(error);
    }
  }
  return { pending, submit, prepare };
}
