// Screenshots of the main screens, on a phone and a desktop, from a freshly seeded server:
// `npm run build && npx tsx scripts/screenshots.ts [outDir]` (default docs/screenshots).
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/chromium';
import { TEST_PASSCODE } from '../src/server/test/test-passcode';
import { startBuiltServer } from './built-server';
import { SERVICE_WORKER_IN_TESTS_KEY } from '../src/web/service-worker/register';

const outDir = process.argv[2] ?? 'docs/screenshots';
const { base, stop } = await startBuiltServer(4390);
mkdirSync(outDir, { recursive: true });

const day = (offset: number) => {
  const date = new Date();
  date.setDate(date.getDate() + offset);
  return date.toISOString().slice(0, 10);
};
const at = (offset: number, hour: number) => {
  const date = new Date();
  date.setDate(date.getDate() + offset);
  date.setHours(hour, 30, 0, 0);
  return date.toISOString();
};

const browser = await chromium.launch({
  executablePath: CHROMIUM_PATH,
  args: CHROMIUM_ARGS,
});
try {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 2,
  });
  const page = await context.newPage();
  const post = async (url: string, data: Record<string, unknown>) => {
    const response = await page.request.post(base + url, { data, headers: { origin: base } });
    if (!response.ok()) throw new Error(`${url}: ${response.status()} ${await response.text()}`);
    return response.json();
  };
  await post('/api/auth/sign-up/email', {
    name: 'Maria Garcia',
    email: 'maria@example.com',
    password: 'secret-password',
    passcode: TEST_PASSCODE,
  });
  const leo = await post('/api/family-members', {
    name: 'Leo',
    date_of_birth: '2017-04-12',
    color: '#3b82f6',
  });
  const ana = await post('/api/family-members', {
    name: 'Ana',
    date_of_birth: '1952-09-30',
    color: '#8b5cf6',
  });
  const physical = await post('/api/visits', {
    visit_name: 'Annual physical',
    doctor_name: 'Dr. Patel',
    visit_date: at(3, 9),
    office_name: 'Riverside Clinic',
    frequency: 'Yearly',
    notes: 'Fasting blood work: no food after midnight.',
  });
  await post('/api/visits', {
    visit_name: 'Pediatric check-up',
    doctor_name: 'Dr. Chen',
    visit_date: at(10, 15),
    family_member_id: leo.id,
    frequency: 'Every 6 months',
  });
  await post('/api/visits', {
    visit_name: 'Cardiology follow-up',
    doctor_name: 'Dr. Okafor',
    visit_date: at(-6, 11),
    family_member_id: ana.id,
  });
  await post('/api/medications', {
    medication_name: 'Lisinopril',
    dosage: '10 mg',
    frequency: 'Daily',
    time_morning: true,
    start_date: day(-40),
    condition: 'Blood pressure',
    family_member_id: ana.id,
  });
  await post('/api/medications', {
    medication_name: 'Vitamin D',
    dosage: '1000 IU',
    frequency: 'Daily',
    time_morning: true,
    time_night: true,
    start_date: day(-2),
  });
  await post('/api/medications', {
    medication_name: 'Amoxicillin',
    dosage: '250 mg',
    frequency: 'Twice Daily',
    time_morning: true,
    time_evening: true,
    start_date: day(-30),
    end_date: day(-20),
    condition: 'Ear infection',
    family_member_id: leo.id,
  });
  await post('/api/shots', {
    shot_name: 'Flu vaccine',
    date_administered: day(-1),
    location: 'Pharmacy',
  });
  await post('/api/shots', {
    shot_name: 'MMR booster',
    date_administered: day(21),
    family_member_id: leo.id,
  });
  await post('/api/notes', {
    title: 'Referral to cardiology',
    note_type: 'Referral',
    note_date: day(-8),
    content:
      'Referred by Dr. Patel for an echocardiogram. Bring previous ECG results and the list of current medications.',
    family_member_id: ana.id,
  });
  await post('/api/history', {
    condition_name: 'Hypertension',
    status: 'Chronic',
    diagnosis_date: '2019-06-01',
    family_member_id: ana.id,
  });
  await post('/api/history', {
    condition_name: 'Type 2 diabetes',
    status: 'Active',
    is_family_history: true,
    relation: 'Grandfather',
  });
  await post('/api/insurance', {
    provider_name: 'BlueShield',
    insurance_type: 'Medical',
    policy_number: 'BS-2291-77',
    status: 'current',
  });
  await post('/api/insurance', {
    provider_name: 'SmileCare',
    insurance_type: 'Dental',
    status: 'past',
    expiry_date: day(-90),
  });
  const penicillin = await post('/api/allergies', {
    substance: 'Penicillin',
    reaction: 'Hives and swelling',
    severity: 'Severe',
    category: 'Medication',
    noted_date: '2021-03-14',
    family_member_id: leo.id,
  });
  await post('/api/allergies', {
    substance: 'Peanuts',
    reaction: 'Itchy mouth',
    severity: 'Mild',
    category: 'Food',
  });
  await post('/api/allergies', {
    substance: 'Cat dander',
    severity: 'Moderate',
    category: 'Environment',
    status: 'Resolved',
    family_member_id: ana.id,
  });
  await post('/api/contacts', {
    contact_name: 'Dr. Priya Patel',
    contact_type: 'Doctor',
    specialty: 'Family medicine',
    phone_number: '+1 555 0100',
  });

  const screens = [
    ['timeline', '/'],
    ['visits', '/visits'],
    ['medications', '/medications'],
    ['history', '/history'],
    ['insurance', '/insurance'],
    ['allergies', '/allergies'],
    ['allergy', `/allergies/${String(penicillin.id)}`],
    ['profile-settings', '/profile-settings'],
    ['profiles', '/profiles'],
    ['list', '/list'],
  ];
  const viewports = [
    ['phone', { width: 390, height: 844 }],
    ['desktop', { width: 1280, height: 800 }],
  ] as const;
  for (const [viewport, size] of viewports) {
    await page.setViewportSize(size);
    for (const [name, url] of screens) {
      await page.goto(base + url);
      await page.waitForLoadState('networkidle');
      await page.screenshot({ path: path.join(outDir, `${name}-${viewport}.png`) });
    }
  }
  await page.setViewportSize({ width: 390, height: 844 });
  for (const [name, url] of [
    ['visit-form', '/visits/new'],
    ['medication-form', '/medications/new'],
    ['history-form', '/history/new'],
    ['visit-detail', `/visits/${physical.id}`],
    ['share', '/share'],
    ['allergy-form', '/allergies/new'],
    ['contacts', '/contacts'],
    ['notes', '/notes'],
    ['shots', '/shots'],
  ]) {
    await page.goto(base + url);
    await page.waitForLoadState('networkidle');
    await page.screenshot({ path: path.join(outDir, `${name}-phone.png`) });
  }
  await page.goto(`${base}/`);
  await page.getByRole('button', { name: 'Add' }).click();
  await page.getByRole('dialog').waitFor();
  await page.screenshot({ path: path.join(outDir, 'add-new-phone.png') });
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Account' }).click();
  await page.getByRole('dialog').waitFor();
  await page.screenshot({ path: path.join(outDir, 'account-phone.png') });
  await page.keyboard.press('Escape');
  await page.emulateMedia({ colorScheme: 'dark' });
  for (const [name, url] of [
    ['timeline', '/'],
    ['medications', '/medications'],
    ['insurance', '/insurance'],
  ]) {
    await page.goto(base + url);
    await page.waitForLoadState('networkidle');
    await page.screenshot({ path: path.join(outDir, `${name}-dark-phone.png`) });
  }
  await page.emulateMedia({ colorScheme: 'light' });

  // Offline, in a browser with the service worker (the app leaves it out under automation
  // unless asked): the app when the network drops, and the worker's own page when it has no
  // shell to open.
  const offline = await browser.newContext({
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 2,
    storageState: await context.storageState(),
  });
  await offline.addInitScript(
    (key) => localStorage.setItem(key, 'on'),
    SERVICE_WORKER_IN_TESTS_KEY,
  );
  const offlinePage = await offline.newPage();
  await offlinePage.goto(`${base}/`);
  await offlinePage.getByRole('heading', { name: /^Welcome/ }).waitFor();
  await offlinePage.evaluate(() => navigator.serviceWorker.ready);
  await offline.setOffline(true);
  await offlinePage.getByText('You are offline').waitFor();
  await offlinePage.screenshot({ path: path.join(outDir, 'offline-app-phone.png') });
  await offlinePage.evaluate(async () => {
    for (const name of await caches.keys()) await caches.delete(name);
  });
  for (const colorScheme of ['light', 'dark'] as const) {
    await offlinePage.emulateMedia({ colorScheme });
    await offlinePage.goto(`${base}/visits`);
    await offlinePage.getByRole('link', { name: 'Try again' }).waitFor();
    const name = colorScheme === 'dark' ? 'offline-dark-phone.png' : 'offline-phone.png';
    await offlinePage.screenshot({ path: path.join(outDir, name) });
  }
  await offline.close();

  await context.clearCookies();
  await page.goto(`${base}/auth`);
  await page.getByRole('tab', { name: 'Sign In' }).waitFor();
  await page.screenshot({ path: path.join(outDir, 'auth-phone.png') });
} finally {
  await browser.close();
  await stop();
}
