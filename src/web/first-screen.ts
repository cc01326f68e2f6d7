/**
 * The screens a visit lands on most (the timeline, or the sign-in screen) start loading as
 * the app starts. The router (routes.tsx) asks for a screen's code only once the whole app
 * has been evaluated, the router, the data cache and the toasts, which on a slow phone takes
 * most of a second; asked for here, first of the entry's imports (main.tsx), the screen's
 * files arrive and compile meanwhile, and the router's own request finds them ready. Any
 * other screen loads as before. The words these screens show are all a page opening on them
 * loads of its language at first (shared/i18n/catalogue-keys.ts `firstScreenKeys`).
 */
const firstScreens: Record<string, () => Promise<unknown>> = {
  '/': () =>
    Promise.all([
      import('./features/shell/signed-in-layout'),
      import('./features/timeline/timeline-page'),
    ]),
  '/auth': () => import('./features/auth/auth-page'),
};

/** The first screen the page opened on, if it did (lib/i18n.ts then loads only its words). */
export function firstScreenOpened(): string | undefined {
  return Object.hasOwn(firstScreens, location.pathname) ? location.pathname : undefined;
}

void firstScreens[location.pathname]?.().catch(() => undefined);
