/**
 * Every screen's path (SPEC.md §2, CONTRACT.md §4–§5), in one list that both sides read: the
 * web app's router (web/routes.tsx) gives each of them its screen, and the server answers
 * each with the app's page and a 200, and any other path with the same page and a 404 (the
 * app then shows its 'Oops! Page not found'). A screen missing here is a 404 its page hides;
 * web/routes.test.tsx holds the router to this list.
 */
import { recordIdentities, type RecordIdentity } from './records/catalogue';

/** The screens that are not a record type's, by name. */
export const SCREENS = {
  auth: '/auth',
  resetPassword: '/reset-password',
  timeline: '/',
  list: '/list',
  search: '/search',
  share: '/share',
  profileSettings: '/profile-settings',
  growth: '/growth',
  profiles: '/profiles',
  documents: '/documents',
  document: '/documents/:id',
  import: '/import',
  emergencyCard: '/emergency-card/:id',
} as const;

export type ScreenName = keyof typeof SCREENS;

/** The screens of one record type: its list, its form (new and edit) and a record's page. */
export function recordScreenPaths(identity: Pick<RecordIdentity, 'path'>) {
  const list = `/${identity.path}`;
  return {
    list,
    new: `${list}/new`,
    detail: `${list}/:id`,
    edit: `${list}/:id/edit`,
  } as const;
}

export const SCREEN_PATHS: readonly string[] = [
  ...Object.values(SCREENS),
  ...recordIdentities.flatMap((identity) => Object.values(recordScreenPaths(identity))),
];

const patterns = SCREEN_PATHS.map((path) => new RegExp(`^${path.replace(/:[a-z]+/g, '[^/]+')}/?$`));

export function isScreenPath(pathname: string): boolean {
  return patterns.some((pattern) => pattern.test(pathname));
}
