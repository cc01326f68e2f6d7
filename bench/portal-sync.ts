/**
 * The patient-portal bench (issue 51): a person connected to the tests' SMART on FHIR server
 * (src/server/test/smart-server.ts) whose record at the portal is Mia Rivera's Synthea
 * history plus BENCH_PORTAL_LABS generated lab results (default 5,000, a decade of a chronic
 * condition's monthly panels), paged 50 a page. Measured, with the product started as
 * `npm start` starts it, while /api/health is asked every 10 ms: the first sync (connect to
 * 'Imported {n} records'), and 'Sync Now' again ('Nothing new'). Budgets: the first sync
 * under 60 s, a sync again under 30 s, server RSS under 350 MB, /api/health p99 under 100 ms.
 *
 *   npm run build && npx tsx bench/portal-sync.ts
 */
import os from 'node:os';
import type { Observation } from '@medplum/fhirtypes';
import type { Connection, ConnectionsAnswer, ConnectStarted } from '../src/shared/connections';
import { signInAtPortal } from '../src/server/test/portal-sign-in';
import { miaPortalRecords, newLabResult } from '../src/server/test/smart-portal-records';
import { startTestSmartServer } from '../src/server/test/smart-server';
import { benchConfig } from './config';
import { askHealth, healthCheck, peakRssCheck, type HealthLatencies } from './import-stall';
import { startProduct } from './processes';
import { runStandalone, type BudgetCheck } from './report';
import { BENCH_PASSWORD, signInCookie, signUp } from './seed';

export const portalSyncBudget = {
  labs: Number(process.env.BENCH_PORTAL_LABS ?? 5000),
  firstSyncSeconds: 60,
  againSeconds: 30,
  peakRssMb: 350,
  healthP99Ms: 100,
};

const PORTAL = 'Riverside Health';

export interface PortalSyncResult {
  resources: number;
  firstSeconds: number;
  firstSummary: string;
  againSeconds: number;
  againSummary: string;
  peakRssBytes: number;
  health: HealthLatencies;
}

/** Lab results a month apart, four analytes each, going back from now. */
function labHistory(patientId: string, count: number): Observation[] {
  const analytes = [
    ['718-7', 'Hemoglobin [Mass/volume] in Blood', 'g/dL', 13.1],
    ['2345-7', 'Glucose [Mass/volume] in Serum or Plasma', 'mg/dL', 96],
    ['2160-0', 'Creatinine [Mass/volume] in Serum or Plasma', 'mg/dL', 0.9],
    ['4548-4', 'Hemoglobin A1c/Hemoglobin.total in Blood', '%', 6.1],
  ] as const;
  return Array.from({ length: count }, (_, index) => {
    const [code, display, unit, value] = analytes[index % analytes.length]!;
    const when = new Date(Date.now() - Math.floor(index / analytes.length) * 86_400_000 * 3);
    const result = newLabResult(patientId);
    return {
      ...result,
      code: { coding: [{ system: 'http://loinc.org', code, display }], text: display },
      effectiveDateTime: when.toISOString(),
      issued: when.toISOString(),
      valueQuantity: {
        value: value + (index % 7) / 10,
        unit,
        system: 'http://unitsofmeasure.org',
        code: unit,
      },
    };
  });
}

export async function measurePortalSync(dir: string): Promise<PortalSyncResult> {
  const origin = `http://127.0.0.1:${benchConfig.productPort}`;
  const redirectUri = `${origin}/api/connections/callback`;
  const portal = await startTestSmartServer({ redirectUris: [redirectUri], pageSize: 50 });
  const records = await miaPortalRecords();
  const patient = records.find((resource) => resource.resourceType === 'Patient')!;
  const resources = [...records, ...labHistory(patient.id!, portalSyncBudget.labs)];
  portal.addPatient({ username: 'mia', resources });
  const product = await startProduct({
    dataDir: dir,
    port: benchConfig.productPort,
    passcode: benchConfig.passcode,
    cpuProfileDir: benchConfig.cpuProfileDir,
    nodeFlags: null,
    env: {
      SMART_PROVIDERS: JSON.stringify([
        { name: PORTAL, fhirBaseUrl: portal.fhirBaseUrl, clientId: portal.clientId },
      ]),
    },
  });
  try {
    const account = await signUp(
      product.url,
      { name: 'Ana Rivera', email: `portal-${Date.now()}@example.com`, password: BENCH_PASSWORD },
      benchConfig.passcode,
    );
    const cookie = await signInCookie(product.url, account, benchConfig.passcode);
    const api = async <T>(method: string, route: string, body?: unknown): Promise<T> => {
      const response = await fetch(`${product.url}${route}`, {
        method,
        headers: { cookie, origin, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
        redirect: 'manual',
      });
      if (response.status >= 400)
        throw new Error(`${method} ${route}: ${response.status} ${await response.text()}`);
      return (
        response.status === 302 ? response.headers.get('location') : await response.json()
      ) as T;
    };
    const mia = await api<{ id: string }>('POST', '/api/family-members', {
      name: 'Mia Rivera',
      date_of_birth: (patient as { birthDate?: string }).birthDate,
    });
    const settled = async (id: string): Promise<Connection> => {
      for (;;) {
        const answer = await api<ConnectionsAnswer>('GET', '/api/connections');
        const connection = answer.connections.find((each) => each.id === id)!;
        if (connection.status !== 'syncing') return connection;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };
    let peakRssBytes = product.rss();
    const watch = async <T>(work: Promise<T>) => {
      const health = await askHealth(product.url, work, () => {
        peakRssBytes = Math.max(peakRssBytes, product.rss());
      });
      return { health, value: await work };
    };

    const started = performance.now();
    const first = await watch(
      (async () => {
        const { authorize_url } = await api<ConnectStarted>('POST', '/api/connections', {
          portal: PORTAL,
          person_id: mia.id,
        });
        const back = await signInAtPortal(authorize_url, 'mia', redirectUri);
        if (!('callback' in back)) throw new Error(`the portal answered: ${back.page}`);
        const location = await api<string>('GET', back.callback.pathname + back.callback.search);
        const id = new URL(location, origin).searchParams.get('connected');
        if (!id) throw new Error(`not connected: ${location}`);
        return settled(id);
      })(),
    );
    const firstSeconds = (performance.now() - started) / 1000;
    const connection = first.value;
    if (connection.status !== 'connected') throw new Error(`first sync: ${connection.problem}`);

    const again = performance.now();
    const second = await watch(
      (async () => {
        await api('POST', `/api/connections/${connection.id}/sync`);
        return settled(connection.id);
      })(),
    );
    const againSeconds = (performance.now() - again) / 1000;
    const health = first.health.p99Ms >= second.health.p99Ms ? first.health : second.health;
    return {
      resources: resources.length,
      firstSeconds,
      firstSummary: connection.last_sync_summary ?? '',
      againSeconds,
      againSummary: second.value.last_sync_summary ?? '',
      peakRssBytes: Math.max(peakRssBytes, product.peakRss()),
      health,
    };
  } finally {
    await product.stop();
    await portal.close();
  }
}

export function portalSyncChecks(result: PortalSyncResult): BudgetCheck[] {
  const what = `patient portal of ${result.resources.toLocaleString('en-US')} resources`;
  return [
    {
      budget: `${what}: connect and first sync in < ${portalSyncBudget.firstSyncSeconds} s`,
      measured: `${result.firstSeconds.toFixed(1)} s ('${result.firstSummary}'; load ${os.loadavg()[0]?.toFixed(1)})`,
      met: result.firstSeconds < portalSyncBudget.firstSyncSeconds,
    },
    {
      budget: `${what}: 'Sync Now' again in < ${portalSyncBudget.againSeconds} s`,
      measured: `${result.againSeconds.toFixed(1)} s ('${result.againSummary}')`,
      met: result.againSeconds < portalSyncBudget.againSeconds,
    },
    peakRssCheck(what, result.peakRssBytes, portalSyncBudget.peakRssMb),
    healthCheck(what, result.health, portalSyncBudget.healthP99Ms, 'while it syncs'),
  ];
}

runStandalone(import.meta.url, 'kin-bench-portal-', async (dir) =>
  portalSyncChecks(await measurePortalSync(dir)),
);
