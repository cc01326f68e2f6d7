/**
 * Eight languages (CONTRACT §6 'Languages', issue 54): the browser's language before one is
 * chosen, 'Language' in Profile Settings for every screen after, Arabic right to left, and a
 * pseudo-locale run of the main screens that finds no untranslated text and no clipped
 * control at 390 px. With SCREENSHOTS=1 the screens in Spanish, Chinese and Arabic are kept
 * in docs/screenshots/languages/.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { LANGUAGES, type LanguageCode } from '../src/shared/i18n/languages';
import { createRecordViaApi, expect, signInWithForm, signUpViaApi, test } from './fixtures';
import { addA1cResults, addAmoxicillin, addEarache, addMia, daysAgo } from './sample-family';
import { createShareLinkFor } from '../bench/web';

/** A word as a language's catalogue writes it (English: the key itself). */
async function word(code: LanguageCode, english: string): Promise<string> {
  if (code === 'en') return english;
  const directory = path.join('src', 'shared', 'i18n', 'catalogues', code);
  for (const file of await readdir(directory)) {
    if (!file.endsWith('.json')) continue;
    const area = JSON.parse(await readFile(path.join(directory, file), 'utf8')) as Record<
      string,
      string
    >;
    if (area[english]) return area[english];
  }
  return english;
}

/** A family with a visit, a medication taken twice a day, a symptom, a lab and vitals. */
async function seedFamily(page: Page) {
  const mia = await addMia(page);
  const visit = await createRecordViaApi(page, 'visits', {
    visit_name: 'Checkup',
    visit_date: daysAgo(12).toISOString(),
    doctor_name: 'Dr Park',
    family_member_id: mia.id,
  });
  const medication = await addAmoxicillin(page, mia.id, '250');
  await addEarache(page, mia.id);
  await createRecordViaApi(page, 'allergies', {
    substance: 'Penicillin',
    severity: 'Severe',
    family_member_id: mia.id,
  });
  await addA1cResults(page, 'HbA1c', ['5.6', '5.5']);
  await createRecordViaApi(page, 'vitals', {
    measured_at: daysAgo(1).toISOString(),
    weight_kg: 72.5,
    systolic_mmhg: 118,
    diastolic_mmhg: 78,
  });
  return { mia, visit, medication };
}

/** The words the seeded family's records hold, the people's names, and what is never translated. */
const DATA_WORDS = new Set([
  'Mia',
  'Ann',
  'Lee',
  'AL',
  'M',
  'Checkup',
  'Dr',
  'Park',
  'Amoxicillin',
  'Earache',
  'Penicillin',
  'HbA1c',
  'Kin',
  'Health',
  // Units are written as the SI and UCUM write them.
  'kg',
  'cm',
  'mg',
  'dL',
  'mmol',
  'L',
  'mmHg',
  'bpm',
  'lb',
  'in',
  'ft',
  'oz',
  'F',
  'C',
  // Names of things: a notification service and a standard.
  'ntfy',
  'FHIR',
  // The toasts' region is announced with its shortcut.
  'alt',
  // The languages are named in themselves.
  ...LANGUAGES.flatMap((language) => language.name.split(/[\s()]+/)),
  // The pseudo-locale is English underneath: its dates are English ones.
  ...['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August'],
  ...['September', 'October', 'November', 'December'],
  ...['Jan', 'Feb', 'Mar', 'Apr', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'],
  ...['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'],
  ...['AM', 'PM', 'at'],
]);

/** Data written with letters and digits together, taken out whole before words are read. */
const DATA_TEXTS = ['HbA1c', 'R4'];

/**
 * The visible text and the read-aloud names of the page that are neither pseudo-translated
 * (accented, in brackets) nor the family's own data.
 */
async function untranslated(page: Page): Promise<string[]> {
  const texts = await page.evaluate(() => {
    const found: string[] = [];
    const visible = (element: Element) =>
      element.getClientRects().length > 0 && getComputedStyle(element).visibility !== 'hidden';
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || ['SCRIPT', 'STYLE', 'NOSCRIPT'].includes(parent.tagName)) continue;
      if (parent.closest('[hidden], [aria-hidden="true"], svg')) continue;
      if (visible(parent) && node.textContent?.trim()) found.push(node.textContent.trim());
    }
    for (const element of document.querySelectorAll(
      '[aria-label], [placeholder], [title], [alt]',
    )) {
      if (!visible(element)) continue;
      for (const name of ['aria-label', 'placeholder', 'title', 'alt']) {
        const value = element.getAttribute(name)?.trim();
        if (value) found.push(value);
      }
    }
    return found;
  });
  const words = (text: string) =>
    DATA_TEXTS.reduce((rest, data) => rest.replaceAll(data, ' '), text)
      .replace(/\[[^\]]*\]/g, ' ')
      // An address (an example a hint gives) is not words.
      .replace(/https?:\/\/\S+/g, ' ')
      .split(/[^A-Za-z]+/)
      .filter((w) => w.length > 0);
  return [
    ...new Set(
      texts.filter((text) => words(text).some((w) => !DATA_WORDS.has(w) && !/^[A-Z]$/.test(w))),
    ),
  ];
}

/** Controls whose words do not fit them, and a page wider than the window. */
async function clipped(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    if (document.documentElement.scrollWidth > window.innerWidth + 1) {
      // Named by the innermost elements that reach past the window's edge.
      const past = [...document.body.querySelectorAll('*')].filter((element) => {
        const box = element.getBoundingClientRect();
        return box.width > 0 && (box.right > window.innerWidth + 1 || box.left < -1);
      });
      const innermost = past.filter(
        (element) => !past.some((other) => other !== element && element.contains(other)),
      );
      const names = innermost
        .slice(0, 3)
        .map(
          (element) =>
            `${element.tagName.toLowerCase()} "${element.textContent?.trim().slice(0, 40) ?? ''}"`,
        );
      found.push(
        `the page scrolls sideways (${document.documentElement.scrollWidth} px): ${names.join(', ')}`,
      );
    }
    const controls = document.querySelectorAll(
      'button, [role="tab"], select, label, nav a, input[type="submit"]',
    );
    for (const control of controls) {
      if (!(control instanceof HTMLElement) || control.getClientRects().length === 0) continue;
      if (control.scrollWidth > control.clientWidth + 1) {
        found.push(`${control.tagName.toLowerCase()} "${control.textContent?.trim() ?? ''}"`);
      }
    }
    return found;
  });
}

test.describe('languages', () => {
  test.beforeEach(() => {
    test.skip(test.info().project.name !== 'phone', 'languages are checked at the phone size');
  });

  test('the browser’s language decides before one is chosen', async ({ browser, baseURL }) => {
    const context = await browser.newContext({ baseURL, locale: 'de-DE' });
    const page = await context.newPage();
    await page.goto('/auth');
    await expect(page.locator('html')).toHaveAttribute('lang', 'de');
    await expect(page.getByRole('tab', { name: await word('de', 'Sign In') })).toBeVisible();
    await context.close();
  });

  test('a first screen loads only its own words; the rest come with the first touch', async ({
    browser,
    baseURL,
  }) => {
    const context = await browser.newContext({ baseURL, locale: 'es-ES' });
    const page = await context.newPage();
    await signUpViaApi(page);
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    const wholeSpanish = () => scripts.filter((file) => /\/assets\/es-[\w-]+\.js$/.test(file));
    await page.goto('/');
    const nav = page.getByRole('navigation');
    await expect(nav.getByRole('link', { name: await word('es', 'Timeline') })).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect(scripts.filter((file) => file.includes('first-screen-words-es'))).toHaveLength(1);
    expect(wholeSpanish()).toEqual([]);
    // The first key press asks for the rest, and the next screen opens with its words.
    await page.keyboard.press('Tab');
    await expect.poll(() => wholeSpanish().length).toBe(1);
    await nav.getByRole('link', { name: await word('es', 'Share') }).click();
    await expect(page.getByText(await word('es', 'Your privacy comes first'))).toBeVisible();
    await context.close();
  });

  test('Language in Profile Settings changes every screen, stays, and follows the account', async ({
    page,
    browser,
    baseURL,
  }) => {
    const user = await signUpViaApi(page);
    await page.goto('/profile-settings');
    const language = page.getByLabel('Language');
    await expect(language.locator('option')).toHaveText(LANGUAGES.map((l) => l.name));
    await language.selectOption({ label: 'Español' });
    await expect(page.locator('html')).toHaveAttribute('lang', 'es');
    const nav = page.getByRole('navigation');
    await expect(nav.getByRole('link', { name: await word('es', 'Timeline') })).toBeVisible();
    // It stays after a reload, and the account keeps it for another browser.
    await page.reload();
    await expect(nav.getByRole('link', { name: await word('es', 'Timeline') })).toBeVisible();
    const other = await browser.newContext({ baseURL, locale: 'en-US' });
    const second = await other.newPage();
    await signInWithForm(second, user);
    await second.waitForURL((url) => url.pathname === '/');
    await expect(second.locator('html')).toHaveAttribute('lang', 'es');
    await other.close();

    // Arabic is laid out right to left.
    await page.goto('/profile-settings');
    await page.getByLabel(await word('es', 'Language')).selectOption({ label: 'العربية' });
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
    await page.getByLabel(await word('ar', 'Language')).selectOption({ label: 'English' });
    await expect(page.locator('html')).toHaveAttribute('dir', 'ltr');
    await expect(page.getByLabel('Language')).toBeVisible();
  });

  test('the pseudo-locale finds no untranslated text and no clipped control at 390 px', async ({
    page,
  }) => {
    test.setTimeout(180_000);
    await signUpViaApi(page);
    const { mia, visit, medication } = await seedFamily(page);
    await page.addInitScript(() => localStorage.setItem('kin.pseudo-locale', 'on'));
    const screens = [
      '/',
      '/list',
      `/visits/${visit.id}`,
      '/visits/new',
      `/medications/${medication.id}`,
      '/medications/new',
      '/shots',
      '/allergies',
      '/labs',
      '/vitals',
      '/symptoms',
      '/documents',
      '/share',
      '/contacts',
      '/profiles',
      '/profile-settings',
      `/emergency-card/${mia.id}`,
    ];
    const problems: string[] = [];
    for (const screen of screens) {
      await page.goto(screen);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await page.waitForLoadState('networkidle');
      for (const text of await untranslated(page)) problems.push(`${screen}: "${text}"`);
      for (const control of await clipped(page)) problems.push(`${screen}: clipped ${control}`);
    }
    expect(problems).toEqual([]);
  });

  test('the main screens in Spanish, Chinese and Arabic', async ({ page, baseURL }) => {
    test.setTimeout(180_000);
    await signUpViaApi(page);
    const { mia, medication } = await seedFamily(page);
    const cookie = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
    const shared = await createShareLinkFor({ baseUrl: baseURL ?? '', cookie, personId: mia.id });
    const keep = process.env.SCREENSHOTS === '1';
    for (const code of ['es', 'zh-CN', 'ar'] as const) {
      await page.goto('/');
      await page.evaluate((chosen) => localStorage.setItem('kin.language', chosen), code);
      for (const [name, screen] of [
        ['timeline', '/'],
        ['medication', `/medications/${medication.id}`],
      ] as const) {
        await page.goto(screen);
        await expect(page.locator('html')).toHaveAttribute('lang', code);
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        await page.waitForLoadState('networkidle');
        expect(await clipped(page)).toEqual([]);
        const file = `${name}-${code}.png`;
        await page.screenshot({
          path: keep
            ? path.join('docs', 'screenshots', 'languages', file)
            : test.info().outputPath(file),
          fullPage: true,
        });
      }
      // The share viewer in the reader's language, which the link carries.
      await page.goto(shared.replace('/shl#', `/shl?lang=${code}#`));
      await expect(page.locator('html')).toHaveAttribute('dir', code === 'ar' ? 'rtl' : 'ltr');
      await expect(
        page.getByRole('heading', { name: await word(code, 'Allergies') }),
      ).toBeVisible();
      expect(await clipped(page)).toEqual([]);
      const file = `share-viewer-${code}.png`;
      await page.screenshot({
        path: keep
          ? path.join('docs', 'screenshots', 'languages', file)
          : test.info().outputPath(file),
        fullPage: true,
      });
    }
  });
});
