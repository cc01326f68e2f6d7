/**
 * What a first screen does not show loads when the person first touches the page: a tap, a
 * click or a key (focus alone is not enough: a screen may move it on its own). The toasts and
 * the rest of the language's words are not needed to show a screen, only to use it, so they
 * stay out of what a phone downloads before the screen appears, and arrive while the finger
 * is still on the glass.
 */
const EVENTS = ['pointerdown', 'keydown', 'touchstart'] as const;

const waiting = new Set<() => void>();
let happened = false;

function interacted() {
  happened = true;
  for (const event of EVENTS) window.removeEventListener(event, interacted, true);
  for (const run of waiting) run();
  waiting.clear();
}

if (typeof window !== 'undefined') {
  for (const event of EVENTS) {
    window.addEventListener(event, interacted, { capture: true, passive: true });
  }
}

/** Runs `run` at the first interaction with the page, or now if there has been one. */
export function onFirstInteraction(run: () => void): void {
  if (happened) run();
  else waiting.add(run);
}
