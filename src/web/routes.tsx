/**
 * Every route of SPEC.md §2. Each screen's code loads when it is first opened, so the
 * first screen stays small. The router loads a screen's code itself (`lazy`): on the first
 * page load it starts at once, while the app is still starting and the session is being
 * checked, rather than after the first render asked for it.
 */
import type { ComponentType } from 'react';
import type { RouteObject } from 'react-router';
import type { RecordType } from '../shared/records/definition';
import { recordIdentities } from '../shared/records/catalogue';
import { Loading } from './components/ui/feedback';
import { RequireSession } from './features/auth/require-session';
import { AppLayout } from './features/shell/app-layout';

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

/** A screen whose code the router loads when it is first opened. */
function screen(load: () => Promise<ComponentType>): Pick<RouteObject, 'lazy' | 'HydrateFallback'> {
  return { lazy: async () => ({ Component: await load() }), HydrateFallback: ScreenLoading };
}

const defaultExport = (module: { default: ComponentType }) => module.default;

const recordRoutes: RouteObject[] = recordIdentities.flatMap((definition) => {
  const load = recordScreenModule(definition.type);
  const pick = (name: keyof RecordScreens) => screen(() => load().then((module) => module[name]));
  return [
    { path: definition.path, ...pick('ListPage') },
    { path: `${definition.path}/new`, ...pick('FormPage') },
    { path: `${definition.path}/:id`, ...pick('DetailPage') },
    { path: `${definition.path}/:id/edit`, ...pick('FormPage') },
  ];
});

export const routes: RouteObject[] = [
  { path: '/auth', ...screen(() => import('./features/auth/auth-page').then(defaultExport)) },
  {
    path: '/reset-password',
    ...screen(() => import('./features/auth/reset-password-page').then(defaultExport)),
  },
  {
    element: (
      <RequireSession>
        <AppLayout />
      </RequireSession>
    ),
    children: [
      {
        index: true,
        ...screen(() => import('./features/timeline/timeline-page').then(defaultExport)),
      },
      {
        path: 'list',
        ...screen(() => import('./features/lists/health-records-page').then(defaultExport)),
      },
      {
        path: 'search',
        ...screen(() => import('./features/search/search-page').then(defaultExport)),
      },
      { path: 'share', ...screen(() => import('./features/share/share-page').then(defaultExport)) },
      {
        path: 'profile-settings',
        ...screen(() =>
          import('./features/profile-settings/profile-settings-page').then(defaultExport),
        ),
      },
      {
        path: 'growth',
        ...screen(() => import('./features/growth/growth-page').then(defaultExport)),
      },
      {
        path: 'profiles',
        ...screen(() => import('./features/family-members/profiles-page').then(defaultExport)),
      },
      {
        path: 'documents',
        ...screen(() => import('./features/documents/documents-page').then(defaultExport)),
      },
      {
        path: 'documents/:id',
        ...screen(() => import('./features/documents/document-detail-page').then(defaultExport)),
      },
      ...recordRoutes,
    ],
  },
  // A path no screen has: the 404 page, which holds no data and needs no session.
  {
    element: <AppLayout />,
    children: [
      {
        path: '*',
        ...screen(() => import('./features/not-found/not-found-page').then(defaultExport)),
      },
    ],
  },
];
