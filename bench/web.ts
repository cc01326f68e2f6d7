/**
 * The web app's first screens in Chromium, as a first visit on a phone: /auth signed out,
 * / signed in as the heavy user, and a share link's viewer (/shl) opened with no account,
 * the new user's records decrypted in the page. Each load starts from an empty cache with the CPU
 * slowed 4× (Chrome DevTools Protocol), and reads First Contentful Paint and Largest
 * Contentful Paint from the Performance API. The JavaScript and CSS a screen loads are
 * counted once, raw, gzip-compressed and as they crossed the wire.
 */
import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser, type Page } from '@playwright/test';
import { CompactEncrypt } from 'jose';
import type { CreatedShareLink } from '../src/shared/share-links';
import { viewerUrl } from '../src/shared/shlink';
import { CHROMIUM_ARGS } from '../e2e/chromium';
import { LANGUAGES } from '../src/shared/i18n/languages';
import { percentile } from './load';

export interface AssetSizes {
  files: number;
  rawBytes: number;
  gzipBytes: number;
  /** What the server actually sent, headers included. */
  wireBytes: number;
}

export interface ScreenResult {
  path: string;
  label: string;
  js: AssetSizes;
  css: AssetSizes;
  assets: { url: string; type: 'js' | 'css'; rawBytes: number; gzipBytes: number }[];
  fcpMs: number;
  lcpMs: number;
  /** Every load's paints, in order, for the JSON. */
  loads: { fcpMs: number; lcpMs: number; lcpElement: string }[];
  /** A screen in another language, loaded once to count what it loads, not timed. */
  sizeOnly?: boolean;
}

interface Paints {
  fcpMs: number;
  lcpMs: number;
  lcpElement: string;
}

/** Paint times as the page itself recorded them. */
function readPaints(page: Page): Promise<Paints> {
  return page.evaluate(
    () =>
      new Promise<Paints>((resolve) => {
        const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN;
        new PerformanceObserver((list) => {
          const last = list.getEntries().at(-1) as
            (PerformanceEntry & { element?: Element | null }) | undefined;
          const element = last?.element;
          resolve({
            fcpMs: fcp,
            lcpMs: last?.startTime ?? NaN,
            lcpElement: element
              ? `${element.tagName.toLowerCase()} "${(element.textContent ?? '').trim().slice(0, 40)}"`
              : '',
          });
        }).observe({ type: 'largest-contentful-paint', buffered: true });
      }),
  );
}

/**
 * A share link to a person's records, made as the owner's browser makes one (the bundle
 * encrypted here, only the JWE uploaded): the viewer URL, key and all.
 */
export async function createShareLinkFor(options: {
  baseUrl: string;
  cookie: string;
  personId: string;
}): Promise<string> {
  const headers = { cookie: options.cookie, origin: options.baseUrl };
  const bundle = await fetch(
    `${options.baseUrl}/api/fhir/Patient/${options.personId}/$everything`,
    { headers },
  );
  if (!bundle.ok) throw new Error(`$everything failed: ${bundle.status}`);
  const key = randomBytes(32);
  const jwe = await new CompactEncrypt(new Uint8Array(await bundle.arrayBuffer()))
    .setProtectedHeader({ alg: 'dir', enc: 'A256GCM', cty: 'application/fhir+json' })
    .encrypt(key);
  const response = await fetch(`${options.baseUrl}/api/share-links`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({
      person_id: options.personId,
      expires_in_days: 1,
      label: 'Benchmark',
      jwe,
    }),
  });
  if (!response.ok)
    throw new Error(`share link failed: ${response.status} ${await response.text()}`);
  const created = (await response.json()) as CreatedShareLink;
  return viewerUrl(options.baseUrl, {
    url: created.url,
    key: key.toString('base64url'),
    exp: created.exp,
    label: created.label,
    v: 1,
  });
}

async function loadOnce(
  browser: Browser,
  options: {
    url: string;
    signIn?: () => Promise<Record<string, string>>;
    ready: (page: Page) => Promise<void>;
    cpuThrottlingRate: number;
    countAssets: boolean;
    /** The browser's language (CONTRACT §6: it decides the app's until one is chosen). */
    locale?: string;
  },
) {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    hasTouch: true,
    locale: options.locale ?? 'en-US',
  });
  try {
    if (options.signIn) {
      const cookies = await options.signIn();
      const url = new URL(options.url);
      await context.addCookies(
        Object.entries(cookies).map(([name, value]) => ({
          name,
          value,
          domain: url.hostname,
          path: '/',
          httpOnly: true,
          sameSite: 'Lax' as const,
        })),
      );
    }
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: options.cpuThrottlingRate });

    const requests = new Map<string, { url: string; type: 'js' | 'css' }>();
    const wire = new Map<string, number>();
    cdp.on('Network.responseReceived', (event) => {
      const type = event.type === 'Script' ? 'js' : event.type === 'Stylesheet' ? 'css' : null;
      if (type) requests.set(event.requestId, { url: event.response.url, type });
    });
    cdp.on('Network.loadingFinished', (event) => {
      wire.set(event.requestId, event.encodedDataLength);
    });
    const bodies = new Map<string, Buffer>();
    const reading: Promise<void>[] = [];
    if (options.countAssets) {
      page.on('response', (response) => {
        const type = response.request().resourceType();
        if (type === 'script' || type === 'stylesheet') {
          reading.push(
            response.body().then(
              (body) => void bodies.set(response.url(), body),
              () => {},
            ),
          );
        }
      });
    }

    await page.goto(options.url, { waitUntil: 'load' });
    await options.ready(page);
    await page.waitForLoadState('networkidle');
    const paints = await readPaints(page);
    await Promise.all(reading);

    const assets = [...requests.entries()].map(([requestId, { url, type }]) => {
      const body = bodies.get(url) ?? Buffer.alloc(0);
      return {
        url: new URL(url).pathname,
        type,
        rawBytes: body.length,
        gzipBytes: body.length ? gzipSync(body).length : 0,
        wireBytes: wire.get(requestId) ?? 0,
      };
    });
    return { paints, assets };
  } finally {
    await context.close();
  }
}

function sizesOf(
  assets: { type: string; rawBytes: number; gzipBytes: number; wireBytes: number }[],
) {
  return {
    files: assets.length,
    rawBytes: assets.reduce((sum, asset) => sum + asset.rawBytes, 0),
    gzipBytes: assets.reduce((sum, asset) => sum + asset.gzipBytes, 0),
    wireBytes: assets.reduce((sum, asset) => sum + asset.wireBytes, 0),
  };
}

/** What a screen loaded, counted: its JavaScript and CSS, and each file for the JSON. */
function countedAssets(
  assets: Awaited<ReturnType<typeof loadOnce>>['assets'],
): Pick<ScreenResult, 'js' | 'css' | 'assets'> {
  return {
    js: sizesOf(assets.filter((asset) => asset.type === 'js')),
    css: sizesOf(assets.filter((asset) => asset.type === 'css')),
    assets: assets.map(({ url, type, rawBytes, gzipBytes }) => ({
      url,
      type,
      rawBytes,
      gzipBytes,
    })),
  };
}

export async function measureFirstScreens(options: {
  baseUrl: string;
  chromiumPath: string;
  loads: number;
  cpuThrottlingRate: number;
  /** Signs the heavy user in and returns the session cookies. */
  signIn: () => Promise<Record<string, string>>;
  /** A share link's viewer URL (`/shl#shlink:/…`), when one is measured. */
  viewerUrl?: string;
}): Promise<ScreenResult[]> {
  const browser = await chromium.launch({
    executablePath: options.chromiumPath,
    args: CHROMIUM_ARGS,
  });
  try {
    const screens: {
      path: string;
      url?: string;
      label: string;
      signIn: (() => Promise<Record<string, string>>) | undefined;
      ready: (page: Page) => Promise<void>;
    }[] = [
      {
        path: '/auth',
        label: 'Sign in (/auth), signed out',
        signIn: undefined,
        ready: (page: Page) => page.getByRole('tab', { name: 'Sign In' }).waitFor(),
      },
      {
        path: '/',
        label: 'Timeline (/), signed in as the heavy user',
        signIn: options.signIn,
        ready: (page: Page) =>
          page
            .getByRole('link', { name: /Visit|Note|Shot/ })
            .first()
            .waitFor(),
      },
      ...(options.viewerUrl
        ? [
            {
              path: '/shl',
              url: options.viewerUrl,
              label: 'Share link viewer (/shl), no account, the new user’s records',
              signIn: undefined,
              ready: (page: Page) => page.getByRole('heading', { name: 'Allergies' }).waitFor(),
            },
          ]
        : []),
    ];
    // The browser's own first navigation pays for starting its renderer: not the app's cost.
    for (const screen of screens) {
      await loadOnce(browser, {
        url: screen.url ?? options.baseUrl + screen.path,
        signIn: screen.signIn,
        ready: screen.ready,
        cpuThrottlingRate: 1,
        countAssets: false,
      });
    }
    const results: ScreenResult[] = [];
    for (const screen of screens) {
      const loads: Paints[] = [];
      let assets: Awaited<ReturnType<typeof loadOnce>>['assets'] = [];
      for (let load = 0; load < options.loads; load += 1) {
        const result = await loadOnce(browser, {
          url: screen.url ?? options.baseUrl + screen.path,
          signIn: screen.signIn,
          ready: screen.ready,
          cpuThrottlingRate: options.cpuThrottlingRate,
          countAssets: load === 0,
        });
        if (load === 0) assets = result.assets;
        loads.push(result.paints);
      }
      results.push({
        path: screen.path,
        label: screen.label,
        ...countedAssets(assets),
        fcpMs: percentile(
          loads.map((load) => load.fcpMs).sort((a, b) => a - b),
          0.5,
        ),
        lcpMs: percentile(
          loads.map((load) => load.lcpMs).sort((a, b) => a - b),
          0.5,
        ),
        loads,
      });
    }
    // Every language loads its own catalogue: the first screens stay within their budget in
    // each of them (issue 54), counted once each.
    for (const language of LANGUAGES.filter((l) => l.code !== 'en')) {
      for (const screen of screens.filter((s) => s.path !== '/shl')) {
        const { assets } = await loadOnce(browser, {
          url: options.baseUrl + screen.path,
          signIn: screen.signIn,
          ready: (page: Page) =>
            page
              .locator(
                `html[lang="${language.code}"] h1, html[lang="${language.code}"] [role="tab"]`,
              )
              .first()
              .waitFor(),
          cpuThrottlingRate: 1,
          countAssets: true,
          locale: language.locale,
        });
        results.push({
          path: `${screen.path} in ${language.name}`,
          label: `${screen.label}, in ${language.name}`,
          ...countedAssets(assets),
          fcpMs: Number.NaN,
          lcpMs: Number.NaN,
          loads: [],
          sizeOnly: true,
        });
      }
    }
    return results;
  } finally {
    await browser.close();
  }
}
