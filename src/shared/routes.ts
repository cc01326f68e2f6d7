/**
 * Every screen's path (SPEC.md §2). The web app routes them; the server answers any other
 * path with the app's 404 page and a 404 status.
 */
import { recordIdentities } from './records/catalogue';

const recordPaths = recordIdentities.flatMap((definition) => [
  `/${definition.path}`,
  `/${definition.path}/new`,
  `/${definition.path}/:id`,
  `/${definition.path}/:id/edit`,
]);

export const SCREEN_PATHS = [
  '/',
  '/auth',
  '/list',
  '/share',
  '/profile-settings',
  '/profiles',
  '/growth',
  ...recordPaths,
] as const;

const patterns = SCREEN_PATHS.map((path) => new RegExp(`^${path.replace(/:[a-z]+/g, '[^/]+')}/?$`));

export function isScreenPath(pathname: string): boolean {
  return patterns.some((pattern) => pattern.test(pathname));
}
