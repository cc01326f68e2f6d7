/**
 * Every route of SPEC.md §2. Each screen's code loads when it is first opened, so the
 * first screen stays small.
 */
import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react';
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

const recordScreenModules: Record<RecordType, () => Promise<RecordScreens>> = {
  visit: () => import('./features/visits/visit-screens'),
  medication: () => import('./features/medications/medication-screens'),
  shot: () => import('./features/shots/shot-screens'),
  note: () => import('./features/notes/note-screens'),
  condition: () => import('./features/history/history-screens'),
  insurance: () => import('./features/insurance/insurance-screens'),
  contact: () => import('./features/contacts/contact-screens'),
};

function page(component: LazyExoticComponent<ComponentType>) {
  const Component = component;
  return (
    <Suspense fallback={<Loading />}>
      <Component />
    </Suspense>
  );
}

function screen(load: () => Promise<{ default: ComponentType }>) {
  return page(lazy(load));
}

const recordRoutes: RouteObject[] = recordIdentities.flatMap((definition) => {
  const load = recordScreenModules[definition.type];
  const pick = (name: keyof RecordScreens) =>
    screen(() => load().then((module) => ({ default: module[name] })));
  return [
    { path: definition.path, element: pick('ListPage') },
    { path: `${definition.path}/new`, element: pick('FormPage') },
    { path: `${definition.path}/:id`, element: pick('DetailPage') },
    { path: `${definition.path}/:id/edit`, element: pick('FormPage') },
  ];
});

export const routes: RouteObject[] = [
  { path: '/auth', element: screen(() => import('./features/auth/auth-page')) },
  {
    element: (
      <RequireSession>
        <AppLayout />
      </RequireSession>
    ),
    children: [
      { index: true, element: screen(() => import('./features/timeline/timeline-page')) },
      { path: 'list', element: screen(() => import('./features/lists/health-records-page')) },
      { path: 'share', element: screen(() => import('./features/share/share-page')) },
      {
        path: 'profile-settings',
        element: screen(() => import('./features/profile-settings/profile-settings-page')),
      },
      {
        path: 'profiles',
        element: screen(() => import('./features/family-members/profiles-page')),
      },
      ...recordRoutes,
    ],
  },
  // A path no screen has: the 404 page, which holds no data and needs no session.
  {
    element: <AppLayout />,
    children: [{ path: '*', element: screen(() => import('./features/not-found/not-found-page')) }],
  },
];
