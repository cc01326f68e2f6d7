/**
 * 'Export as PDF' (CONTRACT.md §4): a dialog with the Person select and 'Download PDF', which
 * fetches that person's health summary from the server and saves it as a `.pdf` file. While
 * it is made, the button is busy and a status line says so (read out by screen readers); a
 * failure is a toast with the server's message, and the dialog stays open to try again.
 */
import { useMutation } from '@tanstack/react-query';
import { FileDown, LoaderCircle } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../../shared/dates';
import { toasts } from '../../../shared/messages';
import { Button } from '../../components/ui/button';
import { Dialog, DialogContent } from '../../components/ui/dialog';
import { dataApi } from './data-api';
import { cn } from '../../lib/cn';
import { saveBlob } from '../../lib/save-file';
import { showError, showSuccess } from '../../lib/toast';
import { PersonSelect, useChosenPerson } from '../family-members/person-select';
import { WholeFamilyContacts } from './whole-family-contacts';

const kilobytes = (bytes: number) =>
  `${formatNumber(Math.max(1, Math.round(bytes / 1024)), { useGrouping: false })} kB`;

export function PdfExportDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const { t } = useTranslation();
  // The person in view (CONTRACT.md §6), until another is chosen here.
  const { personId, choose: setChosenPerson } = useChosenPerson({ exportable: true });
  const [received, setReceived] = useState<number | null>(null);
  const [wholeFamilyContacts, setWholeFamilyContacts] = useState(false);
  const download = useMutation({
    mutationFn: () => {
      setReceived(0);
      return dataApi.downloadSummaryPdf(personId, setReceived, { wholeFamilyContacts });
    },
    onSuccess: ({ blob, fileName }) => {
      saveBlob(blob, fileName ?? 'kin-health-summary.pdf');
      showSuccess({ title: t('PDF downloaded'), description: fileName ?? undefined });
      onOpenChange(false);
    },
    onError: (error) => showError(t(toasts.error), error),
    onSettled: () => setReceived(null),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (personId && !download.isPending) download.mutate();
  };

  return (
    // Closing the dialog does not stop a download: the file is saved when it arrives.
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        title={t('Export as PDF')}
        description={t(
          'A printable summary of one person’s health records, ready to hand to a doctor.',
        )}
      >
        <form onSubmit={submit} className="space-y-4" aria-busy={download.isPending}>
          <PersonSelect
            value={personId}
            onChange={setChosenPerson}
            disabled={download.isPending}
            exportable
          />
          <WholeFamilyContacts
            personId={personId}
            checked={wholeFamilyContacts}
            onChange={setWholeFamilyContacts}
            disabled={download.isPending}
          />
          <Button
            type="submit"
            size="lg"
            disabled={!personId}
            // Busy rather than disabled while the file is made: focus stays on the button.
            aria-disabled={download.isPending || undefined}
            className={cn('w-full', download.isPending && 'cursor-progress opacity-60')}
          >
            {download.isPending ? (
              <LoaderCircle className="animate-spin" aria-hidden="true" />
            ) : (
              <FileDown aria-hidden="true" />
            )}
            {t('Download PDF')}
          </Button>
          <p role="status" className="min-h-5 text-center text-sm text-muted-foreground">
            {received === null
              ? ''
              : received === 0
                ? t('Preparing the summary…')
                : t('Downloading the summary… {size}', { size: kilobytes(received) })}
          </p>
        </form>
      </DialogContent>
    </Dialog>
  );
}
