/** The session guard of every screen but /auth (CONTRACT.md §3). */
import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { Loading } from '../../components/ui/feedback';
import { useSession } from './session';

export function RequireSession({ children }: { children: ReactNode }) {
  const session = useSession();
  const location = useLocation();
  if (session.isPending) return <Loading className="min-h-dvh" />;
  if (!session.data) return <Navigate to="/auth" replace state={{ from: location.pathname }} />;
  return children;
}
