/**
 * Under 1 GB (KIN_MEMORY_MB), the thumbnail process an upload started ends as soon as a heavy
 * job begins (an import, a scan's text), its memory the heavy job's, rather than when its idle
 * time runs out; with more memory it stays for the next upload. Its process is looked for as
 * the machine sees it: a child of this process running the derive worker.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { memoryPlan } from '../config/memory';
import { heavyJobs } from '../runtime/heavy-jobs';
import { uploadDocument } from '../test/documents';
import { createTestServer, signedUpClient } from '../test/harness';
import { samplePdf } from './fixtures/sample-files';

/** The derive worker processes this process started. */
function deriveProcesses(): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (parent !== process.pid) continue;
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes('document-derive-worker')) {
        found.push(Number(entry));
      }
    } catch {
      // A process that ended while it was looked at.
    }
  }
  return found;
}

describe('the thumbnail process when a heavy job begins', () => {
  const servers: Awaited<ReturnType<typeof createTestServer>>[] = [];
  afterAll(async () => {
    for (const server of servers) await server.close();
  });

  for (const [budgetMb, ends] of [
    [512, true],
    [1024, false],
  ] as const) {
    it(`${ends ? 'ends' : 'stays'} at KIN_MEMORY_MB=${budgetMb}`, async () => {
      const heavy = heavyJobs(1);
      // Its idle time a minute whatever the budget: only the heavy job's beginning ends it here.
      const memory = { ...memoryPlan(budgetMb), jobIdleMs: 60_000 };
      const server = await createTestServer({ heavyJobs: heavy, memory });
      servers.push(server);
      const { client } = await signedUpClient(server);
      const before = new Set(deriveProcesses());
      const uploaded = await uploadDocument(client, await samplePdf(1));
      expect(uploaded.status, uploaded.body.message).toBe(201);
      expect(uploaded.body.thumbnail_url).not.toBeNull();
      const now = deriveProcesses();
      const started = now.filter((pid) => !before.has(pid));
      expect(started, `before ${[...before].join(' ')}, after ${now.join(' ')}`).toHaveLength(1);

      await heavy.run(async () => undefined);
      // Its end is asked at once; the process takes a moment to go.
      await expect
        .poll(() => deriveProcesses().includes(started[0]!), { timeout: 5_000 })
        .toBe(!ends);
      if (!ends) expect(deriveProcesses()).toContain(started[0]);
    });
  }
});
