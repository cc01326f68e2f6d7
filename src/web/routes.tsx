/**
 * Every route of SPEC.md §2, at the paths of the one list of screens the server answers too
 * (shared/screen-paths.ts). Each screen's code loads when it is first opened, so the
 * first screen stays small. The router loads a screen's code itself (`lazy`): on the first
 * page load it starts at once, while the app is still starting and the session is being
 * checked, rather than after the first render asked for it.
 */
import type { ComponentType } from 'react';
import type { RouteObject } from 'react-router';
import type { RecordType } from '../shared/records/definition';
import { recordIdentities } from '../shared/records/catalogue';
import { recordScreenPaths, SCREENS, type ScreenName } from '../shared/screen-paths';
import { Loading } from './components/ui/feedback';
import { wordsOnTheirWay } from './lib/i18n';

interface RecordScreens {
  ListPage: ComponentType;
  DetailPage: ComponentType;
  FormPage: ComponentType;
}

/**
 * Each record type's screens, found by their file's name, `{type}-screens.tsx` in the
 * type's feature folder; each loads when one of its screens is first opened.
 */
const screenModules = import.meta.glob<RecordScreens>('./features/*/*-screens.tsx');

export function recordScreenModule(type: RecordType): () => Promise<RecordScreens> {
  const found = Object.entries(screenModules).find(([file]) =>
    file.endsWith(`/${type}-screens.tsx`),
  );
  if (!found)
    throw new Error(`The ${type} record type has no screens (features/*/${type}-screens.tsx)`);
  return found[1];
}

function ScreenLoading() {
  return <Loading />;
}

/**
 * A screen whose code the router loads when it is first opened, with the rest of the
 * language's words when they are on their way (lib/i18n.ts), so it opens in its words.
 */
function screen(load: () => Promise<ComponentType>): Pick<RouteObject, 'lazy' | 'HydrateFallback'> {
  return {
    lazy: async () => {
      const [Component] = await Promise.all([load(), wordsOnTheirWay()]);
      return { Component };
    },
    HydrateFallback: ScreenLoading,
  };
}

const defaultExport = (module: { default: ComponentType }) => module.default;

const recordRoutes: RouteObject[] = recordIdentities.flatMap((definition) => {
  const load = recordScreenModule(definition.type);
  const pick = (name: keyof RecordScreens) => screen(() => load().then((module) => module[name]));
  const paths = recordScreenPaths(definition);
  return [
    { path: paths.list, ...pick('ListPage') },
    { path: paths.new, ...pick('FormPage') },
    { path: paths.detail, ...pick('DetailPage') },
    { path: paths.edit, ...pick('FormPage') },
  ];
});

/** Each screen's code, by the screen's name: a screen of the list without one does not compile. */
const screens: Record<ScreenName, () => Promise<ComponentType>> = {
  auth: () => import('./features/auth/auth-page').then(defaultExport),
  resetPassword: () => import('./features/auth/reset-password-page').then(defaultExport),
  timeline: () => import('./features/timeline/timeline-page').then(defaultExport),
  list: () => import('./features/lists/health-records-page').then(defaultExport),
  search: () => import('./features/search/search-page').then(defaultExport),
  share: () => import('./features/share/share-page').then(defaultExport),
  profileSettings: () =>
    import('./features/profile-settings/profile-settings-page').then(defaultExport),
  growth: () => import('./features/growth/growth-page').then(defaultExport),
  profiles: () => import('./features/family-members/profiles-page').then(defaultExport),
  documents: () => import('./features/documents/documents-page').then(defaultExport),
  document: () => import('./features/documents/document-detail-page').then(defaultExport),
  import: () => import('./features/imports/import-page').then(defaultExport),
  emergencyCard: () => import('./features/emergency-card/emergency-card-page').then(defaultExport),
};

/** The screens open to a visitor with no session. */
const OPEN_SCREENS = ['auth', 'resetPassword'] as const satisfies readonly ScreenName[];
/**
 * The screens that open with no network from what this device kept, and so keep the session
 * rule themselves (the guard waits for the network): the emergency card.
 */
const OFFLINE_SCREENS = ['emergencyCard'] as const satisfies readonly ScreenName[];
const isOpen = (name: ScreenName) =>
  (OPEN_SCREENS as readonly ScreenName[]).includes(name) ||
  (OFFLINE_SCREENS as readonly ScreenName[]).includes(name);

const route = (name: ScreenName): RouteObject => ({
  path: SCREENS[name],
  ...screen(screens[name]),
});
const screenNames = Object.keys(SCREENS) as ScreenName[];

export const routes: RouteObject[] = [
  ...screenNames.filter(isOpen).map(route),
  {
    ...screen(() => import('./features/shell/signed-in-layout').then(defaultExport)),
    children: [...screenNames.filter((name) => !isOpen(name)).map(route), ...recordRoutes],
  },
  // A path no screen has: the 404 page, which holds no data and needs no session.
  {
    ...screen(() => import('./features/shell/app-layout').then((module) => module.AppLayout)),
    children: [
      {
        path: '*',
        ...screen(() => import('./features/not-found/not-found-page').then(defaultExport)),
      },
    ],
  },
];
