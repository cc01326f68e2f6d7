/**
 * The dose buttons' route with limits on, as in the product: uses are counted per address,
 * and past the limit refused with 429 and Retry-After, the refusal written to the audit log.
 * The request log writes the route, never the token.
 */
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../test/harness';
import { DOSE_ACTION_LIMIT } from './dose-actions';

const lines: string[] = [];
const server = useTestServer({
  rateLimit: { max: 1000, windowSeconds: 60 },
  logs: { write: (line) => lines.push(line) },
});

describe('the dose buttons’ route', () => {
  it('is limited per address, and a refusal is audited', async () => {
    const token = 'x'.repeat(43);
    for (let i = 0; i < DOSE_ACTION_LIMIT.max; i += 1) {
      expect((await server.client().request('POST', `/api/dose-actions/${token}`)).status).toBe(
        404,
      );
    }
    const refused = await server.client().request('POST', `/api/dose-actions/${token}`);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    const audited = await server.db
      .selectFrom('audit_log')
      .select(['event', 'detail'])
      .where('detail', '=', 'dose-action')
      .execute();
    expect(audited.filter((row) => row.event === 'verification_failed')).toHaveLength(
      DOSE_ACTION_LIMIT.max,
    );
    expect(audited.filter((row) => row.event === 'too_many_attempts')).toHaveLength(1);
    await server.client().request('GET', `/api/dose-actions/${token}/more`);
    const logged = lines.join('\n');
    expect(logged).toContain('/api/dose-actions/:token');
    expect(logged).toContain('/api/dose-actions/*');
    expect(logged).not.toContain(token);
  });
});
