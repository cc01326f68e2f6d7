/**
 * Leaving the app for another site's page (a patient portal's sign-in), which sends the
 * browser back here when it is done. One place for it, so that the screens' tests can see
 * where the browser was sent (jsdom does not navigate).
 */
export function leaveFor(url: string) {
  window.location.assign(url);
}
