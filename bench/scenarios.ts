/**
 * What is measured: each endpoint as the web app calls it (same paths and query strings,
 * the session cookie, the Origin header on writes), as the heavy user. The first pages are
 * measured as a new user too, right beside the heavy user's, for the like-for-like
 * comparison. Each endpoint with floors also says how its SQL is captured from the
 * product's own repositories.
 */
import { PAGE_SIZE } from '../src/shared/constants';
import { labResultDefinition, medicationDefinition, visitDefinition } from '../src/shared/records';
import type { Repositories } from './capture-sql';
import type { SeededUser } from './seed';
import { ownAccess } from '../src/server/access/scope';

export const SIGN_IN_CONNECTIONS = 4;

export type ScenarioKind = 'read' | 'create' | 'sign-in';

export interface Scenario {
  key: string;
  label: string;
  kind: ScenarioKind;
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  expectedStatus: number;
  /** Measured beside its floors. */
  floors: boolean;
  /** Also measured as the new user, right beside the heavy user: their first pages compare. */
  newUser?: boolean;
  /** Connections held open, when not the run's own number. */
  connections?: number;
  /** One record by id, rather than a page: a lower share of its ideal is expected. */
  detail?: boolean;
  /** Calls the product's repositories as the route does, so the SQL can be captured. */
  capture?: (repositories: Repositories) => Promise<unknown>;
}

export function buildScenarios(context: {
  heavy: SeededUser;
  today: string;
  passcode: string;
}): Scenario[] {
  const { heavy, today } = context;
  const list = (
    userId: string,
    definition: typeof visitDefinition | typeof medicationDefinition,
    view: string,
  ) => {
    return (repositories: Repositories) =>
      repositories.records(definition).list(ownAccess(userId), {
        view,
        today,
        now: new Date().toISOString(),
        limit: PAGE_SIZE,
        offset: 0,
      });
  };
  const timeline = (userId: string) => (repositories: Repositories) =>
    repositories.timeline.list(ownAccess(userId), { cursor: null, limit: PAGE_SIZE });

  const newVisit = {
    visit_name: 'Check-up',
    doctor_name: 'Dr. Patel',
    visit_date: new Date(Date.now() - 30 * 24 * 60 * 60 * 1000).toISOString(),
    frequency: 'Yearly',
    office_name: 'Riverside Clinic',
    notes: 'Bring the list of current medications.',
    family_member_id: heavy.memberIds[0] ?? null,
  };

  const reads: Scenario[] = [
    {
      key: 'timeline',
      newUser: true,
      label: 'Timeline, first page',
      path: '/api/timeline',
      capture: timeline(heavy.id),
    },
    {
      key: 'visits-upcoming',
      label: 'Visits, Upcoming tab',
      path: `/api/visits?view=upcoming&today=${today}&offset=0`,
      capture: list(heavy.id, visitDefinition, 'upcoming'),
    },
    {
      key: 'visits-past',
      newUser: true,
      label: 'Visits, Past tab',
      path: `/api/visits?view=past&today=${today}&offset=0`,
      capture: list(heavy.id, visitDefinition, 'past'),
    },
    {
      key: 'medications',
      newUser: true,
      label: 'Medications, Current tab',
      path: `/api/medications?view=current&today=${today}&offset=0`,
      capture: list(heavy.id, medicationDefinition, 'current'),
    },
    {
      key: 'visit-detail',
      label: 'One visit (detail)',
      detail: true,
      path: `/api/visits/${heavy.visitId}`,
      // The visit, and where it came from (the page says so), as its route reads them.
      capture: async (repositories: Repositories) => {
        const visit = await repositories
          .records(visitDefinition)
          .get(ownAccess(heavy.id), heavy.visitId);
        const from = await repositories.importedFrom(heavy.id, visitDefinition.type, heavy.visitId);
        return { ...visit, imported_from: from };
      },
    },
  ].map((scenario) => ({
    ...scenario,
    kind: 'read' as const,
    method: 'GET' as const,
    expectedStatus: 200,
    floors: true,
  }));

  return [
    ...reads,
    // A lab result's trend: every result of its test for its person (about 300 here), read
    // as its route reads it: the result, then its test's results.
    {
      key: 'lab-trend',
      label: 'One lab result’s trend',
      kind: 'read' as const,
      method: 'GET' as const,
      path: `/api/labs/${heavy.labResultId}/trend`,
      expectedStatus: 200,
      floors: true,
      detail: true,
      capture: async (repositories: Repositories) => {
        const access = ownAccess(heavy.id);
        const result = await repositories
          .records(labResultDefinition)
          .get(access, heavy.labResultId);
        if (!result) throw new Error('lab-trend: the heavy user has no such lab result');
        // The capture's repositories are typed for any record; this one is a lab result.
        return repositories.labTrend(access, result as Parameters<Repositories['labTrend']>[1]);
      },
    },
    {
      key: 'create-visit',
      label: 'Create a visit',
      kind: 'create',
      method: 'POST',
      path: '/api/visits',
      body: JSON.stringify(newVisit),
      expectedStatus: 201,
      floors: true,
      capture: (repositories: Repositories) =>
        repositories
          .records(visitDefinition)
          .create(
            ownAccess(heavy.id),
            visitDefinition.schema.parse(newVisit) as Record<string, unknown>,
          ),
    },
    {
      key: 'sign-in',
      label: 'Sign in',
      kind: 'sign-in',
      method: 'POST',
      path: '/api/auth/sign-in/email',
      body: JSON.stringify({
        email: heavy.email,
        password: heavy.password,
        passcode: context.passcode,
      }),
      expectedStatus: 200,
      floors: true,
      // Each sign-in is two Argon2id hash checks on the thread pool (four threads); more
      // connections than that would only queue and measure the queue.
      connections: SIGN_IN_CONNECTIONS,
    },
  ];
}

/**
 * The sign-in's ideal endpoint: find the account, check both hashes (the password's, and the
 * server's one passcode hash: no user row keeps one, decision 0048), store a session.
 */
export const signInStatements = [
  `select u.id, u.email, u.name, s.family_passcode, a.password from "user" u
   join "account" a on a."userId" = u.id and a."providerId" = 'credential'
   join "server_settings" s on s.id = 1
   where u.email = ?`,
  `insert into "session" ("id", "expiresAt", "token", "createdAt", "updatedAt", "userId")
   values (?, ?, ?, ?, ?, ?)`,
];
