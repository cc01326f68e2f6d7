/**
 * Profile Settings' 'Connections' (CONTRACT §6), shown when the operator offers patient portals
 * (`SMART_PROVIDERS`): 'Connect a Patient Portal' asks the 'Health System' and the 'Person' and
 * sends the browser to the portal's sign-in; back here (`?connected={id}` or
 * `?connection_error={sentence}`) it says how that went. Each connection is listed as
 * '{health system} for {person}' with when it last synced and what that brought, 'Sync Now',
 * 'Reconnect' when the portal wants its patient to sign in again (or the sync failed), and
 * 'Disconnect', after a confirm that says the records stay.
 */
import { Hospital, LogIn, PlugZap, RefreshCw, Unplug } from 'lucide-react';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ApiError } from '../../../shared/api-error';
import {
  connectionTitle,
  type Connection,
  type ConnectionsAnswer,
  type PortalOption,
} from '../../../shared/connections';
import { formatDate } from '../../../shared/dates';
import { toasts } from '../../../shared/messages';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { Dialog, DialogContent } from '../../components/ui/dialog';
import { Loading } from '../../components/ui/feedback';
import { fieldErrorProps, FormField } from '../../components/ui/form-field';
import { Select } from '../../components/ui/input';
import { errorMessage, showError, showSuccess } from '../../lib/toast';
import { usePersons } from '../family-members/person-select';
import { SESSION_TIME_FORMAT } from './active-sessions';
import {
  isSyncing,
  refreshImportedRecords,
  useConnect,
  useConnections,
  useDisconnect,
  useReconnect,
  useSyncConnection,
} from './connections-queries';

/** The query parameters the portal's return brings to Profile Settings. */
const CONNECTED_PARAM = 'connected';
const CONNECTION_ERROR_PARAM = 'connection_error';

/** What went wrong starting a connection: under the field at fault, or above the buttons. */
interface ConnectProblem {
  field?: 'portal' | 'person_id';
  message: string;
}

function connectProblem(error: unknown): ConnectProblem {
  const field = error instanceof ApiError ? error.field : undefined;
  return field === 'portal' || field === 'person_id'
    ? { field, message: errorMessage(error) }
    : { message: errorMessage(error) };
}

function ConnectDialog({
  open,
  onOpenChange,
  portals,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  portals: PortalOption[];
}) {
  const { t } = useTranslation();
  const id = useId();
  const persons = usePersons();
  const connect = useConnect();
  const [portal, setPortal] = useState('');
  const [personId, setPersonId] = useState('');
  const [problem, setProblem] = useState<ConnectProblem | null>(null);
  const chosenPortal = portal || portals[0]?.name || '';
  const chosenPerson = personId || persons[0]?.id || '';
  // Once the portal's address is known the browser is on its way there: still busy.
  const busy = connect.isPending || connect.isSuccess;

  useEffect(() => {
    if (open) setProblem(null);
  }, [open]);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!chosenPortal) {
      return setProblem({ field: 'portal', message: t('Health System is required') });
    }
    if (!chosenPerson) return setProblem({ field: 'person_id', message: t('Person is required') });
    setProblem(null);
    connect.mutate(
      { portal: chosenPortal, person_id: chosenPerson },
      { onError: (error) => setProblem(connectProblem(error)) },
    );
  }

  const fieldError = (field: NonNullable<ConnectProblem['field']>) =>
    problem && problem.field === field ? problem.message : undefined;
  const portalField = `${id}-portal`;
  const personField = `${id}-person`;
  const portalError = fieldError('portal');
  const personError = fieldError('person_id');

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        title={t('Connect a Patient Portal')}
        description={t(
          'You sign in to the health system’s patient portal; Kin Health then brings in that person’s records from it.',
        )}
      >
        <form onSubmit={submit} className="space-y-4" noValidate>
          <FormField id={portalField} label={t('Health System')} required error={portalError}>
            <Select
              id={portalField}
              required
              value={chosenPortal}
              onChange={(event) => setPortal(event.target.value)}
              disabled={busy}
              {...fieldErrorProps(portalField, portalError)}
            >
              {portals.map((option) => (
                <option key={option.name} value={option.name}>
                  {option.name}
                </option>
              ))}
            </Select>
          </FormField>
          <FormField id={personField} label={t('Person')} required error={personError}>
            <Select
              id={personField}
              required
              value={chosenPerson}
              onChange={(event) => setPersonId(event.target.value)}
              disabled={busy || persons.length === 0}
              {...fieldErrorProps(personField, personError)}
            >
              {persons.map((person) => (
                <option key={person.id} value={person.id}>
                  {person.label}
                </option>
              ))}
            </Select>
          </FormField>
          {problem && !problem.field ? (
            <p role="alert" className="text-sm font-medium text-destructive">
              {problem.message}
            </p>
          ) : null}
          <Button type="submit" size="lg" className="w-full" disabled={busy}>
            <PlugZap aria-hidden="true" />
            {busy ? t('Connecting...') : t('Connect')}
          </Button>
        </form>
      </DialogContent>
    </Dialog>
  );
}

const needsSignIn = (connection: Connection) =>
  connection.status === 'needs-sign-in' || connection.status === 'failed';

function ConnectionItem({
  connection,
  onDisconnect,
}: {
  connection: Connection;
  onDisconnect: () => void;
}) {
  const { t } = useTranslation();
  const titleId = useId();
  const sync = useSyncConnection();
  const reconnect = useReconnect();
  const syncing = connection.status === 'syncing' || sync.isPending;
  const leaving = reconnect.isPending || reconnect.isSuccess;
  return (
    <li aria-labelledby={titleId} className="rounded-2xl border border-border p-3">
      <div className="flex items-start gap-3">
        <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-surface-muted text-foreground">
          <Hospital className="size-5" aria-hidden="true" />
        </span>
        <div className="min-w-0 flex-1 text-sm">
          <h3 id={titleId} className="text-base font-medium break-words">
            {connectionTitle(connection)}
          </h3>
          <p className="text-muted-foreground">
            {connection.last_synced_at
              ? t('Last synced {time}', {
                  time: formatDate(connection.last_synced_at, SESSION_TIME_FORMAT),
                })
              : t('Not synced yet')}
          </p>
          {/* Told as it changes: 'Syncing…', then what the sync brought. */}
          <p role="status" className="text-muted-foreground">
            {syncing ? t('Syncing…') : (connection.last_sync_summary ?? '')}
          </p>
          {connection.problem && !syncing ? (
            <p role="alert" className="mt-1 font-medium text-destructive">
              {connection.problem}
            </p>
          ) : null}
        </div>
      </div>
      <div className="mt-3 flex flex-wrap justify-end gap-2">
        <Button
          variant="outline"
          size="sm"
          aria-describedby={titleId}
          disabled={syncing}
          onClick={() =>
            sync.mutate(connection.id, { onError: (error) => showError(t(toasts.error), error) })
          }
        >
          <RefreshCw aria-hidden="true" />
          {t('Sync Now')}
        </Button>
        {needsSignIn(connection) ? (
          <Button
            size="sm"
            aria-describedby={titleId}
            disabled={leaving}
            onClick={() =>
              reconnect.mutate(connection.id, {
                onError: (error) => showError(t(toasts.error), error),
              })
            }
          >
            <LogIn aria-hidden="true" />
            {leaving ? t('Reconnecting...') : t('Reconnect')}
          </Button>
        ) : null}
        <Button variant="outline" size="sm" aria-describedby={titleId} onClick={onDisconnect}>
          <Unplug aria-hidden="true" />
          {t('Disconnect')}
        </Button>
      </div>
    </li>
  );
}

/**
 * Back from the portal: `?connected={id}` says so in a toast, `?connection_error={sentence}`
 * is kept to show in the section; either leaves the address (replaced, not a new entry) once
 * the list is known.
 */
function usePortalReturn(answer: ConnectionsAnswer | undefined, settled: boolean) {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const connected = params.get(CONNECTED_PARAM);
  const refused = params.get(CONNECTION_ERROR_PARAM);
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => {
    if (connected === null && refused === null) return;
    if (!settled) return;
    if (refused !== null) setProblem(refused);
    const made = answer?.connections.find((connection) => connection.id === connected);
    if (made) showSuccess(t('Connected to {portal}', { portal: made.portal }));
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete(CONNECTED_PARAM);
        next.delete(CONNECTION_ERROR_PARAM);
        return next;
      },
      { replace: true },
    );
  }, [connected, refused, settled, answer, setParams, t]);

  return { problem, dismiss: () => setProblem(null) };
}

/** When the last sync running ends, what it brought in is read anew wherever it shows. */
function useRefreshAfterSync(answer: ConnectionsAnswer | undefined) {
  const queryClient = useQueryClient();
  const syncing = isSyncing(answer);
  const wasSyncing = useRef(syncing);
  useEffect(() => {
    if (wasSyncing.current && !syncing) refreshImportedRecords(queryClient);
    wasSyncing.current = syncing;
  }, [syncing, queryClient]);
}

export function ConnectionsSection() {
  const { t } = useTranslation();
  const connections = useConnections();
  const returned = usePortalReturn(connections.data, !connections.isPending);
  useRefreshAfterSync(connections.data);
  const disconnect = useDisconnect();
  const [connecting, setConnecting] = useState(false);
  const [disconnecting, setDisconnecting] = useState<Connection | null>(null);

  useEffect(() => {
    // Without the list the section is not shown: the failure is only logged, as the profile's.
    if (connections.error) console.error('Could not load the connections', connections.error);
  }, [connections.error]);

  const portals = connections.data?.portals ?? [];
  if (portals.length === 0) return null;
  const list = connections.data?.connections ?? [];

  return (
    <Card className="p-5">
      <section aria-labelledby="connections-heading" className="space-y-4">
        <div>
          <h2 id="connections-heading" className="font-semibold">
            {t('Connections')}
          </h2>
          <p className="text-sm text-muted-foreground">
            {t(
              'Bring a person’s records in from their health system’s patient portal: sign in to the portal once, then ‘Sync Now’ brings in what is new.',
            )}
          </p>
        </div>
        {returned.problem ? (
          <p
            role="alert"
            className="rounded-2xl bg-destructive/10 p-4 text-sm font-medium text-destructive"
          >
            {returned.problem}
          </p>
        ) : null}
        {connections.isPending ? (
          <Loading compact />
        ) : list.length > 0 ? (
          <ul aria-label={t('Connections')} className="space-y-2">
            {list.map((connection) => (
              <ConnectionItem
                key={connection.id}
                connection={connection}
                onDisconnect={() => setDisconnecting(connection)}
              />
            ))}
          </ul>
        ) : (
          <p className="text-sm text-muted-foreground">{t('No connections yet.')}</p>
        )}
        <Button
          onClick={() => {
            returned.dismiss();
            setConnecting(true);
          }}
        >
          <PlugZap aria-hidden="true" />
          {t('Connect a Patient Portal')}
        </Button>
      </section>
      <ConnectDialog open={connecting} onOpenChange={setConnecting} portals={portals} />
      <ConfirmDialog
        open={disconnecting !== null}
        onOpenChange={(open) => {
          if (!open) setDisconnecting(null);
        }}
        title={
          disconnecting
            ? t('Disconnect {connection}?', { connection: connectionTitle(disconnecting) })
            : ''
        }
        description={
          disconnecting
            ? t('Kin Health stops syncing from {portal}. The records already brought in stay.', {
                portal: disconnecting.portal,
              })
            : ''
        }
        confirmLabel={t('Disconnect')}
        pendingLabel={t('Disconnecting...')}
        pending={disconnect.isPending}
        onConfirm={() => {
          if (!disconnecting) return;
          const gone = disconnecting;
          disconnect.mutate(gone.id, {
            onSuccess: () => {
              setDisconnecting(null);
              showSuccess(t('Disconnected from {portal}', { portal: gone.portal }));
            },
            onError: (error) => showError(t(toasts.error), error),
          });
        }}
      />
    </Card>
  );
}
