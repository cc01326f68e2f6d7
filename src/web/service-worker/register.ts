/**
 * Registers the service worker (/sw.js) once the page has loaded, so it never competes
 * with the first screen for the network; in a production build only.
 */

/**
 * Browser tests run each test in a fresh browser profile against one build: the worker's
 * precaching and its answering of page loads would only add work and moving parts there,
 * so a browser under automation goes without it unless a test asks for it with this
 * localStorage key (the test of the worker itself).
 */
export const SERVICE_WORKER_IN_TESTS_KEY = 'kin-service-worker-in-tests';

function wanted(): boolean {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return false;
  if (!navigator.webdriver) return true;
  try {
    return localStorage.getItem(SERVICE_WORKER_IN_TESTS_KEY) === 'on';
  } catch {
    return false;
  }
}

export function registerServiceWorker() {
  if (!wanted()) return;
  const register = () => {
    // Without it the app works as before, only not offline: nothing to tell the user.
    navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => undefined);
  };
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}
