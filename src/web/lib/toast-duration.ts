/** How long a toast stays on the screen unless something clears it first (lib/toast.ts). */
export const TOAST_DURATION_MS = 5_000;
