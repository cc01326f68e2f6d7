/** The backdrop of the screens used signed out (/auth, /reset-password): one centred column. */
import type { ReactNode } from 'react';

export function AuthBackdrop({ children }: { children: ReactNode }) {
  return (
    <div className="min-h-dvh bg-gradient-to-b from-primary-soft to-background px-4 py-10 sm:py-16">
      <main className="mx-auto w-full max-w-md">{children}</main>
    </div>
  );
}
