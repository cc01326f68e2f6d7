/**
 * The screens a visit lands on most (the timeline, or the sign-in screen) start loading as
 * the app starts. The router (routes.tsx) asks for a screen's code only once the whole app
 * has been evaluated, the router, the data cache and the toasts, which on a slow phone takes
 * most of a second; asked for here, first of the entry's imports (main.tsx), the screen's
 * files arrive and compile meanwhile, and the router's own request finds them ready. Any
 * other screen loads as before.
 */
const firstScreens: Record<string, () => Promise<unknown>> = {
  '/': () => import('./features/timeline/timeline-page'),
  '/auth': () => import('./features/auth/auth-page'),
};

void firstScreens[location.pathname]?.().catch(() => undefined);
