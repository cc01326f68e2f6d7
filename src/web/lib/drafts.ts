/**
 * Drafts of unsaved forms, kept for this tab only: in sessionStorage, never localStorage, so
 * that health data typed into a form does not outlive the tab. One draft per form (record
 * type and record id) and per user; all of them are forgotten at sign-out.
 */
const PREFIX = 'kin-draft:';

export function draftKey(userId: string, form: string, id: string | undefined): string {
  return `${PREFIX}${userId}:${form}:${id ?? 'new'}`;
}

function storage(): Storage | undefined {
  try {
    return window.sessionStorage;
  } catch {
    // Storage refused (a locked-down browser): forms still work, without drafts.
    return undefined;
  }
}

export function readDraft<T>(key: string): T | undefined {
  const text = storage()?.getItem(key);
  if (!text) return undefined;
  try {
    return JSON.parse(text) as T;
  } catch {
    return undefined;
  }
}

export function writeDraft(key: string, values: unknown): void {
  try {
    storage()?.setItem(key, JSON.stringify(values));
  } catch {
    // Full or refused: the form itself still holds what was typed.
  }
}

export function clearDraft(key: string): void {
  storage()?.removeItem(key);
}

export function clearAllDrafts(): void {
  const store = storage();
  if (!store) return;
  const keys = Array.from({ length: store.length }, (_, index) => store.key(index));
  for (const key of keys) if (key?.startsWith(PREFIX)) store.removeItem(key);
}
