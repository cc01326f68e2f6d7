/**
 * The frame of every signed-in screen: the session guard, the watch on what is shared with
 * the user, and the layout (navigation, list pane). Loaded with the first signed-in screen,
 * so the sign-in screen carries none of it.
 */
import { RequireSession } from '../auth/require-session';
import { HouseholdWatch } from '../household/household-queries';
import { AppLayout } from './app-layout';

export default function SignedInLayout() {
  return (
    <RequireSession>
      <HouseholdWatch />
      <AppLayout />
    </RequireSession>
  );
}
