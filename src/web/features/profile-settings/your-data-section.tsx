/**
 * 'Your data' in profile settings: download everything as one file, and bring such a file
 * into an empty account.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Download, Upload } from 'lucide-react';
import { useId, useRef, type ChangeEvent } from 'react';
import { toasts } from '../../../shared/messages';
import { buttonVariants } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { dataApi } from '../../lib/api';
import { cn } from '../../lib/cn';
import { showError, showSuccess } from '../../lib/toast';

const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

async function readJson(file: File): Promise<unknown> {
  try {
    return JSON.parse(await file.text());
  } catch {
    throw new Error('The file is not a Kin Health export (it is not JSON)');
  }
}

export function YourDataSection() {
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const queryClient = useQueryClient();
  const importFile = useMutation({
    mutationFn: async (file: File) => dataApi.import(await readJson(file)),
    onSuccess: (summary) => {
      showSuccess({
        title: 'Import complete',
        description: `${count(summary.family_members, 'family member')} and ${count(summary.records, 'record')} were added.`,
      });
      void queryClient.invalidateQueries();
    },
    onError: (error) => showError(toasts.error, error),
    onSettled: () => {
      if (input.current) input.current.value = '';
    },
  });

  const choose = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    if (file) importFile.mutate(file);
  };

  return (
    <Card className="p-5">
      <h2 className="font-semibold">Your data</h2>
      <p className="mb-4 text-sm text-muted-foreground">
        Download your family members and every record as one file, to keep or to move to another Kin
        Health. A file downloaded here can be imported into an empty account.
      </p>
      <div className="flex flex-col gap-3 sm:flex-row">
        <a href={dataApi.exportUrl} download className={buttonVariants({ variant: 'outline' })}>
          <Download aria-hidden="true" />
          Download my data
        </a>
        <label
          htmlFor={inputId}
          className={cn(
            buttonVariants({ variant: 'outline' }),
            'cursor-pointer has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-ring',
            importFile.isPending && 'pointer-events-none opacity-60',
          )}
        >
          <Upload aria-hidden="true" />
          {importFile.isPending ? 'Importing...' : 'Import from a file'}
          <input
            ref={input}
            id={inputId}
            type="file"
            accept="application/json,.json"
            className="sr-only"
            onChange={choose}
            disabled={importFile.isPending}
          />
        </label>
      </div>
    </Card>
  );
}
