/**
 * Keyboard shortcuts (issue 52): '/' searches (the search field of every screen's header takes
 * it, search-box.tsx), 'n' opens Add New, '?' shows this list. None fires while a field is
 * being typed in, or with Ctrl, Alt or ⌘ held (the browser's own shortcuts stay its own).
 */
import { useEffect } from 'react';
import { key } from '../../../shared/i18n/translate';
import { typingInField } from '../../lib/typing-in-field';

export const SHORTCUTS: ReadonlyArray<{ keys: string; does: string }> = [
  { keys: '/', does: key('Search records and documents') },
  { keys: 'n', does: key('Add New') },
  { keys: '?', does: key('Show these shortcuts') },
  { keys: 'Esc', does: key('Close a dialog') },
];

/** Listens for 'n' and '?' on the whole page while a signed-in screen shows. */
export function useShortcuts(actions: { onAdd: () => void; onShortcuts: () => void }) {
  const { onAdd, onShortcuts } = actions;
  useEffect(() => {
    function onKey(event: KeyboardEvent) {
      if (event.metaKey || event.ctrlKey || event.altKey || event.defaultPrevented) return;
      if (typingInField(event.target)) return;
      // A dialog open already has the keyboard.
      if (document.querySelector('[role="dialog"], [role="alertdialog"]')) return;
      if (event.key === 'n') {
        event.preventDefault();
        onAdd();
      } else if (event.key === '?') {
        event.preventDefault();
        onShortcuts();
      }
    }
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onAdd, onShortcuts]);
}
