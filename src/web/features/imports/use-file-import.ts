/**
 * What one file on /import does, apart from how it looks: its preview, again whenever the
 * person or the span of days changes, the choices made on it, and its import.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { ChangedChoice } from '../../../shared/import-preview';
import { NEW_MEMBER, type FileImportDone } from '../../../shared/imports';
import { importsApi, type ImportProgress } from './imports-api';
import { usePersons } from '../family-members/person-select';

/** A file waiting on /import, with a key of its own (two files may share a name). */
export interface ChosenFile {
  key: string;
  file: File;
}

export function useFileImport(chosen: ChosenFile) {
  const { file } = chosen;
  const queryClient = useQueryClient();
  const persons = usePersons();
  /** The person picked here; until then, the one the server proposes. */
  const [person, setPerson] = useState<string | undefined>();
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [changed, setChanged] = useState<ChangedChoice>('keep');
  const [confirmProblems, setConfirmProblems] = useState(false);
  const [done, setDone] = useState<FileImportDone | null>(null);
  const [progress, setProgress] = useState<ImportProgress>('waiting');

  const preview = useQuery({
    queryKey: ['import-preview', chosen.key, person ?? '', from, to],
    queryFn: () => importsApi.preview(file, { person, from, to }, setProgress),
    retry: false,
    staleTime: Infinity,
    gcTime: 0,
    refetchOnWindowFocus: false,
  });
  const data = preview.data;
  // The select shows what the counts are for: the choice, the match, or the new member.
  const shownPerson =
    person ?? data?.person_id ?? (data?.new_member ? NEW_MEMBER : data ? '' : undefined);
  const wholeAccount = data?.kind === 'kin-health-export';

  const write = useMutation({
    mutationFn: () =>
      importsApi.importFile(
        file,
        {
          person: wholeAccount ? undefined : shownPerson,
          changed,
          confirm: confirmProblems,
          from,
          to,
        },
        setProgress,
      ),
    onSuccess: (answer) => {
      setDone(answer);
      void queryClient.invalidateQueries();
    },
  });
  const busy = preview.isFetching || write.isPending;
  const needsPerson = !wholeAccount && !shownPerson;
  const needsConfirm = (data?.problems.length ?? 0) > 0 && !confirmProblems;

  return {
    persons,
    setPerson,
    from,
    setFrom,
    to,
    setTo,
    changed,
    setChanged,
    confirmProblems,
    setConfirmProblems,
    done,
    progress,
    preview,
    data,
    shownPerson,
    wholeAccount,
    write,
    busy,
    needsPerson,
    needsConfirm,
  };
}
