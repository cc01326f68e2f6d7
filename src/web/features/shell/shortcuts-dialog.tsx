/** The keyboard shortcuts' sheet ('?'), loaded when first asked for. */
import { useTranslation } from 'react-i18next';
import { Dialog, DialogContent } from '../../components/ui/dialog';
import { SHORTCUTS } from './keyboard-shortcuts';

export function ShortcutsDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const { t } = useTranslation();
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent title={t('Keyboard shortcuts')}>
        <dl className="grid grid-cols-[auto_1fr] items-center gap-x-4 gap-y-3 text-sm">
          {SHORTCUTS.map((shortcut) => (
            <div key={shortcut.keys} className="contents">
              <dt>
                <kbd className="inline-flex min-w-8 justify-center rounded-lg border border-border bg-surface-muted px-2 py-1 font-mono text-sm font-semibold">
                  {shortcut.keys}
                </kbd>
              </dt>
              <dd>{t(shortcut.does)}</dd>
            </div>
          ))}
        </dl>
      </DialogContent>
    </Dialog>
  );
}
