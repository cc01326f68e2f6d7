/**
 * Profile Settings' 'Connections' (CONTRACT §6) in a browser-like page (jsdom): the section
 * rendered in the app's router, data cache and toasts, against a stand-in for the API's routes
 * (shared/connections.ts) behind `fetch`, as the real client calls them. Where the browser is
 * sent (the portal's sign-in) is read from the one place the app leaves itself.
 */
import { QueryClientProvider } from '@tanstack/react-query';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { Toaster } from 'sonner';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Connection, ConnectionsAnswer } from '../../../shared/connections';
import { formatDate } from '../../../shared/dates';
import type { FamilyMember } from '../../../shared/family-members';
import type { Household } from '../../../shared/household';
import { startI18n } from '../../lib/i18n';
import { leaveFor } from '../../lib/leave-for';
import { createQueryClient } from '../../lib/query-client';
import { SESSION_TIME_FORMAT } from './active-sessions';
import { ConnectionsSection } from './connections-section';
import { SYNC_POLL_MS } from './connections-queries';

vi.mock('../../lib/leave-for', () => ({ leaveFor: vi.fn() }));

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const ME = { id: 'user-1', email: 'ann@example.com', name: 'Ann Lee' };
const MIA: FamilyMember = {
  id: 'member-mia',
  user_id: ME.id,
  created_at: '2026-01-01T00:00:00.000Z',
  name: 'Mia',
  date_of_birth: '2019-04-02',
} as FamilyMember;
const SHARED: Household = {
  given: [],
  pendingForYou: 0,
  received: [
    {
      grantId: 'grant-1',
      personId: 'shared-leo',
      ownerId: 'user-2',
      familyMemberId: 'shared-leo',
      name: 'Leo',
      color: 'blue',
      dateOfBirth: null,
      sex: null,
      ownerName: 'Grace Kim',
      role: 'editor',
      allowExport: true,
      accessEnds: null,
    },
  ],
};
const AUTHORIZE_URL = 'https://portal.example.test/authorize?state=abc';
const SYNCED_AT = '2026-03-04T15:30:00.000Z';

function connection(overrides: Partial<Connection> = {}): Connection {
  return {
    id: 'conn-1',
    portal: 'Riverside Health',
    person: { id: MIA.id, name: 'Mia' },
    status: 'connected',
    last_synced_at: SYNCED_AT,
    last_sync_summary: 'Imported 12 records',
    problem: null,
    created_at: '2026-03-01T10:00:00.000Z',
    ...overrides,
  };
}

/** The API as the section calls it: what it answers, and every call it was sent. */
interface Call {
  method: string;
  path: string;
  body: unknown;
}
let answer: ConnectionsAnswer;
let calls: Call[];
/** Replies for the next calls to a route ('POST /api/connections'), else the defaults below. */
let replies: Map<string, Response[]>;

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

function reply(method: string, path: string): Response {
  const queued = replies.get(`${method} ${path}`)?.shift();
  if (queued) return queued;
  const syncPath = /^\/api\/connections\/([^/]+)\/(sync|reconnect)$/.exec(path);
  const onePath = /^\/api\/connections\/([^/]+)$/.exec(path);
  if (method === 'GET' && path === '/api/auth/get-session')
    return json({ session: { id: 's', expiresAt: '2099-01-01T00:00:00.000Z' }, user: ME });
  if (method === 'GET' && path === '/api/family-members') return json([MIA]);
  if (method === 'GET' && path === '/api/household') return json(SHARED);
  if (method === 'GET' && path === '/api/connections') return json(answer);
  if (method === 'POST' && path === '/api/connections')
    return json({ authorize_url: AUTHORIZE_URL }, 201);
  if (method === 'POST' && syncPath?.[2] === 'sync') {
    const found = answer.connections.find((one) => one.id === syncPath[1]);
    return json({ ...found, status: 'syncing', problem: null }, 202);
  }
  if (method === 'POST' && syncPath?.[2] === 'reconnect')
    return json({ authorize_url: AUTHORIZE_URL });
  if (method === 'DELETE' && onePath) {
    answer = {
      ...answer,
      connections: answer.connections.filter((one) => one.id !== onePath[1]),
    };
    return new Response(null, { status: 204 });
  }
  return json({ message: 'Not found' }, 404);
}

async function fakeFetch(input: RequestInfo | URL, init: RequestInit = {}) {
  const url = new URL(String(input instanceof Request ? input.url : input), window.location.origin);
  const method = (init.method ?? 'GET').toUpperCase();
  const body = typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
  calls.push({ method, path: url.pathname, body });
  return reply(method, url.pathname);
}

let root: Root | null = null;
let container: HTMLElement;
let router: ReturnType<typeof createMemoryRouter>;

async function open(address = '/profile-settings') {
  const queryClient = createQueryClient();
  queryClient.setDefaultOptions({ queries: { retry: false } });
  router = createMemoryRouter([{ path: '/profile-settings', element: <ConnectionsSection /> }], {
    initialEntries: [address],
  });
  container = document.createElement('div');
  document.body.append(container);
  root = createRoot(container);
  await act(async () => {
    root?.render(
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
        <Toaster theme="light" />
      </QueryClientProvider>,
    );
  });
}

/** Waits (up to `ms`) for the check to pass, letting the page's fetches and renders run. */
async function until(check: () => void, ms = 3000) {
  const end = Date.now() + ms;
  for (;;) {
    try {
      check();
      return;
    } catch (error) {
      if (Date.now() > end) throw error;
    }
    await act(() => new Promise((resolve) => setTimeout(resolve, 20)));
  }
}

const text = (element: Element | null) => (element?.textContent ?? '').replace(/\s+/g, ' ').trim();

/** The buttons inside `scope` whose words are exactly `name`. */
function buttons(name: string, scope: ParentNode = document) {
  return [...scope.querySelectorAll('button')].filter((button) => text(button) === name);
}

function button(name: string, scope: ParentNode = document): HTMLButtonElement {
  const found = buttons(name, scope);
  if (found.length !== 1) throw new Error(`${found.length} buttons named '${name}'`);
  return found[0]!;
}

/** The control a label names, by the label's words. */
function field(label: string, scope: ParentNode = document): HTMLSelectElement {
  const found = [...scope.querySelectorAll('label')].find((one) => text(one) === label);
  const control = found ? document.getElementById(found.htmlFor) : null;
  if (!(control instanceof HTMLSelectElement)) throw new Error(`no select labelled '${label}'`);
  return control;
}

/** The list item a connection is, by the title that names it. */
function item(title: string): HTMLElement {
  const found = [...document.querySelectorAll('li')].find((li) => {
    const label = document.getElementById(li.getAttribute('aria-labelledby') ?? '');
    return text(label) === title;
  });
  if (!found) throw new Error(`no list item named '${title}'`);
  return found;
}

const dialog = () => document.querySelector('[role="dialog"]');
const alertDialog = () => document.querySelector('[role="alertdialog"]');

async function click(element: HTMLElement) {
  await act(async () => element.click());
}

async function choose(select: HTMLSelectElement, value: string) {
  await act(async () => {
    select.value = value;
    select.dispatchEvent(new Event('change', { bubbles: true }));
  });
}

// The app's words, as main.tsx starts them: English here (jsdom's browser speaks en-US).
beforeAll(() => startI18n());

beforeEach(() => {
  answer = {
    portals: [{ name: 'Riverside Health' }, { name: 'Lakeside Clinic' }],
    connections: [],
  };
  calls = [];
  replies = new Map();
  vi.stubGlobal('fetch', vi.fn(fakeFetch));
  window.matchMedia ??= () =>
    ({ matches: false, addEventListener() {}, removeEventListener() {} }) as never;
  vi.mocked(leaveFor).mockClear();
});

afterEach(async () => {
  await act(async () => root?.unmount());
  root = null;
  container.remove();
  document.body.innerHTML = '';
  vi.unstubAllGlobals();
});

const sectionHeading = () =>
  [...document.querySelectorAll('h2')].find((heading) => text(heading) === 'Connections');

describe('the Connections section', () => {
  it('is not shown when the server offers no portals', async () => {
    answer = { portals: [], connections: [] };
    await open();
    await until(() => expect(calls.some((call) => call.path === '/api/connections')).toBe(true));
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(sectionHeading()).toBeUndefined();
    expect(buttons('Connect a Patient Portal')).toHaveLength(0);
  });

  it('is a landmark headed Connections, saying when there is nothing connected yet', async () => {
    await open();
    await until(() => expect(sectionHeading()).toBeDefined());
    const section = sectionHeading()?.closest('section');
    expect(section?.getAttribute('aria-labelledby')).toBe(sectionHeading()?.id);
    expect(text(section ?? null)).toContain('No connections yet.');
  });

  it('connects: Health System and Person (own persons only) send {portal, person_id}, then go to the portal', async () => {
    await open();
    await until(() => button('Connect a Patient Portal'));
    await click(button('Connect a Patient Portal'));
    await until(() => expect(dialog()).not.toBeNull());
    expect(text(dialog()?.querySelector('h2') ?? null)).toBe('Connect a Patient Portal');

    const portal = field('Health System', dialog()!);
    expect([...portal.options].map((option) => option.text)).toEqual([
      'Riverside Health',
      'Lakeside Clinic',
    ]);
    const person = field('Person', dialog()!);
    await until(() =>
      expect([...person.options].map((option) => option.text)).toEqual(['Ann Lee (you)', 'Mia']),
    );

    await choose(portal, 'Lakeside Clinic');
    await choose(person, MIA.id);
    await click(button('Connect', dialog()!));
    await until(() => expect(leaveFor).toHaveBeenCalledWith(AUTHORIZE_URL));
    const sent = calls.filter((call) => call.method === 'POST' && call.path === '/api/connections');
    expect(sent.map((call) => call.body)).toEqual([
      { portal: 'Lakeside Clinic', person_id: MIA.id },
    ]);
    // The browser is on its way: the button stays busy.
    expect(button('Connecting...', dialog()!).disabled).toBe(true);
    // Back with the browser's Back button, the page as it was left: ready again.
    await act(async () => {
      window.dispatchEvent(new PageTransitionEvent('pageshow', { persisted: true }));
    });
    await until(() => expect(button('Connect', dialog()!).disabled).toBe(false));
  });

  it('says a refused connect in the dialog, under the field it names', async () => {
    replies.set('POST /api/connections', [
      json({ message: 'Person is not one of yours', field: 'person_id' }, 400),
      json({ message: 'The portal did not answer' }, 502),
    ]);
    await open();
    await until(() => button('Connect a Patient Portal'));
    await click(button('Connect a Patient Portal'));
    await until(() => expect(field('Person', dialog()!).options).toHaveLength(2));

    await click(button('Connect', dialog()!));
    await until(() =>
      expect(text(dialog()!.querySelector('[role="alert"]'))).toBe('Person is not one of yours'),
    );
    const person = field('Person', dialog()!);
    expect(person.getAttribute('aria-invalid')).toBe('true');
    expect(text(document.getElementById(person.getAttribute('aria-describedby') ?? ''))).toBe(
      'Person is not one of yours',
    );

    await click(button('Connect', dialog()!));
    await until(() =>
      expect(text(dialog()!.querySelector('[role="alert"]'))).toBe('The portal did not answer'),
    );
    expect(field('Person', dialog()!).getAttribute('aria-invalid')).toBeNull();
    expect(leaveFor).not.toHaveBeenCalled();
    expect(button('Connect', dialog()!).disabled).toBe(false);
  });

  it('lists each connection by its title, when it last synced and what that brought', async () => {
    answer.connections = [
      connection(),
      connection({
        id: 'conn-2',
        portal: 'Lakeside Clinic',
        person: { id: ME.id, name: 'Ann Lee' },
        last_synced_at: null,
        last_sync_summary: null,
      }),
    ];
    await open();
    await until(() => item('Riverside Health for Mia'));
    const riverside = item('Riverside Health for Mia');
    expect(text(riverside)).toContain(`Last synced ${formatDate(SYNCED_AT, SESSION_TIME_FORMAT)}`);
    expect(text(riverside)).toMatch(/Last synced Mar 4, 2026, \d{1,2}:30 [AP]M/);
    expect(text(riverside)).toContain('Imported 12 records');
    expect(riverside.querySelector('[role="alert"]')).toBeNull();
    expect(text(item('Lakeside Clinic for Ann Lee'))).toContain('Not synced yet');
    // Each item's buttons keep their names; the item's title describes them.
    for (const name of ['Sync Now', 'Disconnect']) {
      const one = button(name, riverside);
      expect(document.getElementById(one.getAttribute('aria-describedby') ?? '')?.textContent).toBe(
        'Riverside Health for Mia',
      );
    }
  });

  it('Sync Now starts a sync: Syncing… while it runs, asked again until it is done', async () => {
    answer.connections = [connection()];
    await open();
    await until(() => button('Sync Now', item('Riverside Health for Mia')));
    await click(button('Sync Now', item('Riverside Health for Mia')));
    await until(() => expect(text(item('Riverside Health for Mia'))).toContain('Syncing…'));
    expect(calls.filter((call) => call.method === 'POST').map((call) => call.path)).toEqual([
      '/api/connections/conn-1/sync',
    ]);
    expect(button('Sync Now', item('Riverside Health for Mia')).disabled).toBe(true);

    // The server finishes; the list, asked again while syncing, says so.
    const listed = () => calls.filter((call) => call.path === '/api/connections').length;
    const before = listed();
    answer.connections = [connection({ last_sync_summary: 'Nothing new' })];
    await until(
      () => expect(text(item('Riverside Health for Mia'))).toContain('Nothing new'),
      SYNC_POLL_MS + 3000,
    );
    expect(listed()).toBe(before + 1);
    expect(button('Sync Now', item('Riverside Health for Mia')).disabled).toBe(false);
    // Done: it is not asked again.
    await act(() => new Promise((resolve) => setTimeout(resolve, SYNC_POLL_MS + 500)));
    expect(listed()).toBe(before + 1);
  }, 15_000);

  it('offers Reconnect only when the portal asks to sign in again or the sync failed, and says the problem', async () => {
    answer.connections = [
      connection(),
      connection({
        id: 'conn-2',
        person: { id: ME.id, name: 'Ann Lee' },
        status: 'needs-sign-in',
        problem: 'Riverside Health asked to sign in again',
      }),
      connection({
        id: 'conn-3',
        portal: 'Lakeside Clinic',
        status: 'failed',
        problem: 'The portal did not answer',
      }),
    ];
    await open();
    await until(() => item('Riverside Health for Mia'));
    expect(buttons('Reconnect', item('Riverside Health for Mia'))).toHaveLength(0);
    expect(text(item('Lakeside Clinic for Mia').querySelector('[role="alert"]'))).toBe(
      'The portal did not answer',
    );
    expect(buttons('Reconnect', item('Lakeside Clinic for Mia'))).toHaveLength(1);
    const ann = item('Riverside Health for Ann Lee');
    expect(text(ann.querySelector('[role="alert"]'))).toBe(
      'Riverside Health asked to sign in again',
    );

    await click(button('Reconnect', ann));
    await until(() => expect(leaveFor).toHaveBeenCalledWith(AUTHORIZE_URL));
    expect(calls.filter((call) => call.method === 'POST').map((call) => call.path)).toEqual([
      '/api/connections/conn-2/reconnect',
    ]);
  });

  it('Disconnect asks first, saying the records stay, then forgets the connection', async () => {
    answer.connections = [connection()];
    await open();
    await until(() => button('Disconnect', item('Riverside Health for Mia')));
    await click(button('Disconnect', item('Riverside Health for Mia')));
    await until(() => expect(alertDialog()).not.toBeNull());
    expect(text(alertDialog()!.querySelector('h2'))).toBe('Disconnect Riverside Health for Mia?');
    expect(text(alertDialog())).toContain(
      'Kin Health stops syncing from Riverside Health. The records already brought in stay.',
    );

    await click(button('Cancel', alertDialog()!));
    await until(() => expect(alertDialog()).toBeNull());
    expect(calls.some((call) => call.method === 'DELETE')).toBe(false);

    await click(button('Disconnect', item('Riverside Health for Mia')));
    await until(() => expect(alertDialog()).not.toBeNull());
    await click(button('Disconnect', alertDialog()!));
    await until(() => expect(alertDialog()).toBeNull());
    expect(calls.filter((call) => call.method === 'DELETE').map((call) => call.path)).toEqual([
      '/api/connections/conn-1',
    ]);
    await until(() => expect(text(document.body)).toContain('No connections yet.'));
    expect(text(document.body)).not.toContain('Riverside Health for Mia');
  });

  it('back from the portal with ?connected, says so in a toast, the first sync shown, and leaves the address', async () => {
    answer.connections = [
      connection({ status: 'syncing', last_synced_at: null, last_sync_summary: null }),
    ];
    await open('/profile-settings?connected=conn-1&tab=x');
    await until(() => expect(text(document.body)).toContain('Connected to Riverside Health'));
    expect(text(item('Riverside Health for Mia'))).toContain('Syncing…');
    expect(text(item('Riverside Health for Mia'))).toContain('Not synced yet');
    expect(router.state.location.search).toBe('?tab=x');
    expect(router.state.historyAction).toBe('REPLACE');
  });

  it('back from the portal with ?connection_error, says the sentence in the section and leaves the address', async () => {
    const sentence = 'Riverside Health refused: the sign-in was cancelled';
    await open(`/profile-settings?connection_error=${encodeURIComponent(sentence)}`);
    await until(() => expect(router.state.location.search).toBe(''));
    expect(router.state.historyAction).toBe('REPLACE');
    const section = sectionHeading()?.closest('section');
    expect(text(section?.querySelector('[role="alert"]') ?? null)).toBe(sentence);
  });
});
