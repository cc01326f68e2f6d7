/**
 * The router's screens are the list the server answers (shared/screen-paths.ts): a screen the
 * router has and the list lacks would answer 404 while its page shows, and one the list has
 * and the router lacks would answer 200 with 'Oops! Page not found'.
 */
import type { RouteObject } from 'react-router';
import { describe, expect, it } from 'vitest';
import { isScreenPath, SCREEN_PATHS } from '../shared/screen-paths';
import { routes } from './routes';

function pathsOf(list: readonly RouteObject[]): string[] {
  return list.flatMap((route) => [
    ...(route.index ? ['/'] : route.path ? [route.path] : []),
    ...pathsOf(route.children ?? []),
  ]);
}

describe('the screens', () => {
  const routed = pathsOf(routes).filter((path) => path !== '*');

  it('the router has every screen of the list, and no other', () => {
    expect([...routed].sort()).toEqual([...SCREEN_PATHS].sort());
  });

  it('the server knows every path the router routes, and only those', () => {
    for (const path of routed) {
      expect(
        isScreenPath(path.replace(/:[a-z]+/gi, '0197c3a2-5b1e-7c4d-8e9f-a0b1c2d3e4f5')),
        path,
      ).toBe(true);
    }
    for (const path of ['/no/such/page', '/documentsx', '/visits/1/2/3', '/search/more'])
      expect(isScreenPath(path), path).toBe(false);
  });
});
