/**
 * Where focus goes as a dialog opens and closes. Radix returns focus only to a Trigger of its
 * own, and the product's dialogs are opened by state (from a menu, a card, a list item), so
 * without this focus fell to the page's body on closing. Opening, the first field takes focus
 * rather than the close button, so a keyboard user starts where the dialog's question is.
 */
import { useRef } from 'react';

const FIELDS = 'input:not([type="hidden"]):not([disabled]), select:not([disabled]), textarea';

export function useDialogFocus(options: { focusFirstField: boolean }) {
  // Read as the dialog mounts: focus is still on what opened it.
  const opener = useRef<HTMLElement | null>(null);
  return {
    onOpenAutoFocus: (event: Event) => {
      const active = document.activeElement;
      opener.current = active instanceof HTMLElement && active !== document.body ? active : null;
      if (!options.focusFirstField) return;
      const field = (event.currentTarget as HTMLElement | null)?.querySelector<HTMLElement>(FIELDS);
      if (field) {
        event.preventDefault();
        field.focus();
      }
    },
    onCloseAutoFocus: (event: Event) => {
      // Back to the opener; when it is gone (the card deleted, the menu closed), to the
      // screen's title, where the page header lets focus rest.
      const target = opener.current?.isConnected
        ? opener.current
        : document.querySelector<HTMLElement>('h1[tabindex="-1"]');
      opener.current = null;
      if (target) {
        event.preventDefault();
        target.focus();
      }
    },
  };
}
