/**
 * The confirm step before anything is destroyed: role alertdialog, 'Cancel', and a
 * confirming button whose name starts with 'Delete' (or 'Discard', for typing left behind:
 * then the way back is named for it, 'Keep editing'). What the step asks for (a password,
 * say) goes between the words and the buttons; the whole is a form, so Enter confirms.
 */
import * as AlertDialog from '@radix-ui/react-alert-dialog';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from './button';
import { useDialogFocus } from './dialog-focus';

export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  confirmLabel,
  cancelLabel,
  pendingLabel,
  pending = false,
  onConfirm,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: ReactNode;
  confirmLabel: string;
  cancelLabel?: string;
  pendingLabel?: string;
  pending?: boolean;
  onConfirm: () => void;
  children?: ReactNode;
}) {
  // Opening, focus goes to Cancel (Radix's choice for a destructive step); closing, back.
  const focus = useDialogFocus({ focusFirstField: false });
  const { t } = useTranslation();
  return (
    <AlertDialog.Root open={open} onOpenChange={onOpenChange}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="fixed inset-0 z-50 bg-black/45 backdrop-blur-[2px]" />
        <AlertDialog.Content
          {...focus}
          className="fixed top-1/2 left-1/2 z-50 max-h-[calc(100dvh-2rem)] w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-3xl border border-border bg-surface p-6 shadow-2xl"
        >
          <AlertDialog.Title className="text-lg font-semibold">{title}</AlertDialog.Title>
          <AlertDialog.Description asChild>
            <div className="mt-2 text-sm leading-relaxed text-muted-foreground">{description}</div>
          </AlertDialog.Description>
          <form
            // Its own messages, as visible text, rather than the browser's bubbles.
            noValidate
            onSubmit={(event) => {
              // The dialog stays open until the deletion has finished.
              event.preventDefault();
              onConfirm();
            }}
          >
            {children ? <div className="mt-4 space-y-4">{children}</div> : null}
            <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
              <AlertDialog.Cancel asChild>
                <Button type="button" variant="outline">
                  {cancelLabel ?? t('Cancel')}
                </Button>
              </AlertDialog.Cancel>
              <Button type="submit" variant="destructive" disabled={pending}>
                {pending ? (pendingLabel ?? t('Deleting...')) : confirmLabel}
              </Button>
            </div>
          </form>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
