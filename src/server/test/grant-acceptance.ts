/** For tests: the grantee's side of a grant, entering the acceptance code the owner got. */
import { expect } from 'vitest';
import type { GivenGrant } from '../../shared/household';
import type { TestClient, TestResponse } from './harness';

/**
 * The grantee enters the one-time code of a new (or still pending) grant; a change to an
 * accepted grant has none, and needs nothing.
 */
export async function acceptGrant(
  grantee: TestClient,
  granted: TestResponse<GivenGrant>,
): Promise<void> {
  const code = granted.status === 201 ? granted.body.acceptanceCode : null;
  if (!code) return;
  const accepted = await grantee.post('/api/household/accept', { code });
  expect(accepted.status, JSON.stringify(accepted.body)).toBe(204);
}

/** The owner shares a person with another account, which accepts. */
export async function shareAndAccept(
  owner: TestClient,
  grantee: { client: TestClient; email: string },
  personId: string,
  role: 'viewer' | 'editor',
): Promise<void> {
  const granted = await owner.post<GivenGrant>('/api/household/grants', {
    personId,
    email: grantee.email,
    role,
  });
  expect(granted.status, JSON.stringify(granted.body)).toBe(201);
  await acceptGrant(grantee.client, granted);
}
