/** The web app's entry: router, data cache, toasts, the offline notice and the service worker. */
// First of all: the screen being opened starts loading while the rest of the app is evaluated.
import { firstScreenOpened } from './first-screen';
import { QueryClientProvider } from '@tanstack/react-query';
import { Fragment, StrictMode, Suspense, useEffect, useState } from 'react';
import { lazyPart } from './lib/when-reachable';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, matchRoutes, RouterProvider, type RouteObject } from 'react-router';
import i18next from 'i18next';
import { sessionQuery, useSessionExpiryWatch } from './features/auth/session';
import { OfflineBanner } from './features/shell/offline-banner';
import { currentLanguageCode, startI18n } from './lib/i18n';
import { createQueryClient } from './lib/query-client';
import { whenToasterWanted } from './lib/toast';
import { routes } from './routes';
import { registerServiceWorker } from './service-worker/register';
import './styles.css';

const queryClient = createQueryClient();
// Every screen first asks who is signed in: ask now, while the screen's own code loads.
void queryClient.prefetchQuery(sessionQuery);

/** How long the first render waits for the screen's code before it shows 'Loading' instead. */
const FIRST_SCREEN_WAIT_MS = 1000;

/**
 * The screen the page opens on, ready before the first render: the router then renders it
 * at once, rather than 'Loading' first and the screen later, in a second, interruptible pass.
 * Its code was asked for at start (first-screen.ts) and has usually arrived; a screen slower
 * than FIRST_SCREEN_WAIT_MS is left to the router, which shows 'Loading' meanwhile.
 */
async function loadFirstScreen(all: RouteObject[]) {
  const lazy = (matchRoutes(all, location) ?? []).flatMap(({ route }) =>
    typeof route.lazy === 'function' ? [{ route, load: route.lazy }] : [],
  );
  const loaded = await Promise.race([
    Promise.all(lazy.map(async ({ route, load }) => ({ route, screen: await load() }))),
    new Promise<null>((resolve) => setTimeout(() => resolve(null), FIRST_SCREEN_WAIT_MS)),
  ]).catch(() => null);
  for (const { route, screen } of loaded ?? []) {
    Object.assign(route, screen);
    delete route.lazy;
  }
}

/**
 * The language in force: a change renders every screen anew in the new language (the
 * router keeps its place, the data cache its data).
 */
function useLanguageKey() {
  const [language, setLanguage] = useState(currentLanguageCode);
  useEffect(() => {
    const changed = () => setLanguage(currentLanguageCode());
    i18next.on('languageChanged', changed);
    return () => i18next.off('languageChanged', changed);
  }, []);
  return language;
}

const ProductToaster = lazyPart(() => import('./features/shell/toaster'));

/** The toasts' place, once the first toast or interaction wants it (lib/toast.ts). */
function Toasts() {
  const [wanted, setWanted] = useState(false);
  useEffect(() => whenToasterWanted(() => setWanted(true)), []);
  return wanted ? (
    <Suspense fallback={null}>
      <ProductToaster />
    </Suspense>
  ) : null;
}

function App({ router }: { router: ReturnType<typeof createBrowserRouter> }) {
  useSessionExpiryWatch();
  const language = useLanguageKey();
  return (
    <Fragment key={language}>
      <OfflineBanner />
      <RouterProvider router={router} />
      <Toasts />
    </Fragment>
  );
}

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element');
void Promise.all([loadFirstScreen(routes), startI18n({ firstScreen: firstScreenOpened() })]).then(
  () => {
    const router = createBrowserRouter(routes);
    createRoot(root).render(
      <StrictMode>
        <QueryClientProvider client={queryClient}>
          <App router={router} />
        </QueryClientProvider>
      </StrictMode>,
    );
  },
);
registerServiceWorker();
