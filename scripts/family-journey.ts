// The family's journey, walked in Chromium on a fresh server, with a screenshot at each step:
// `npm run build && npx tsx scripts/family-journey.ts [outDir]` (default /tmp/journey).
// A mother signs up through the form, adds two children and a grandmother, a medication and
// contacts through the forms, marks a dose taken, re-imports a child's FHIR file (nothing is
// doubled), reads the adherence (no invented miss), reads the grandmother's vaccine schedule
// (an adult's: no childhood dose), records a child's DTaP dose today from the Schedule tab
// (given, in her PDF and share link), adds the child's weight from her chip on /vitals (hers,
// not her mother's), attaches a prescription to the inhaler after uploading it, makes the
// child's PDF (only the child's care team),
// shares the child with the other parent, and meets the form's guards. It throws with a clear
// message at the first thing that is not as it should be, so it can be rerun.
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/chromium';
import { samplePdf } from '../src/server/documents/fixtures/sample-files';
import { pdfText } from '../src/server/test/pdf-text';
import { TEST_PASSCODE } from '../src/server/test/test-passcode';
import { startBuiltServer } from './built-server';

const outDir = process.argv[2] ?? '/tmp/journey';
mkdirSync(outDir, { recursive: true });
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

/** A port no one listens on, from 4395 up. */
async function freePort(from: number): Promise<number> {
  for (let port = from; port < from + 100; port += 1) {
    const free = await new Promise<boolean>((resolve) => {
      const probe = createServer()
        .once('error', () => resolve(false))
        .listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
    });
    if (free) return port;
  }
  throw new Error(`no free port from ${String(from)}`);
}

function check(condition: boolean, message: string): asserts condition {
  if (!condition) throw new Error(`Journey: ${message}`);
}

/** A local calendar day, `offset` days from today, or `years` years ago. */
function day(offset: number, years = 0): string {
  const date = new Date();
  date.setFullYear(date.getFullYear() - years);
  date.setDate(date.getDate() + offset);
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${String(date.getFullYear())}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

const port = await freePort(4395);
const { base, stop } = await startBuiltServer(port);

let shot = 0;
/** A numbered screenshot of the page as it is, on a phone unless asked otherwise. */
async function snap(page: Page, name: string, desktop = false) {
  shot += 1;
  const file = `${String(shot).padStart(2, '0')}-${name}-${desktop ? 'desktop' : 'phone'}.png`;
  if (desktop) await page.setViewportSize(DESKTOP);
  await page.waitForLoadState('networkidle');
  await page.screenshot({ path: path.join(outDir, file) });
  if (desktop) await page.setViewportSize(PHONE);
  console.log(file);
}

/** Waits for text, and says which step did not show it. */
async function expectText(page: Page, text: string | RegExp, step: string) {
  try {
    await page.getByText(text).first().waitFor({ timeout: 10_000 });
  } catch {
    throw new Error(`Journey: ${step}: '${String(text)}' did not appear`);
  }
}

/** The text of a region (a section with a heading), or why the step failed without it. */
async function regionText(page: Page, name: string, step: string): Promise<string> {
  const region = page.getByRole('region', { name });
  try {
    await region.waitFor({ timeout: 10_000 });
  } catch {
    throw new Error(`Journey: ${step}: no '${name}' section`);
  }
  return (await region.textContent()) ?? '';
}

async function signUp(browser: Browser, name: string, email: string, password: string) {
  const context = await browser.newContext({
    baseURL: base,
    viewport: PHONE,
    deviceScaleFactor: 1,
    acceptDownloads: true,
  });
  const page = await context.newPage();
  await page.goto('/auth');
  await page.getByRole('tab', { name: 'Sign Up' }).click();
  await page.getByLabel('Full Name').fill(name);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByLabel('Friends & Family Passcode').fill(TEST_PASSCODE);
  await expectText(page, /^Strength: /, `${name}'s sign-up shows the password's strength`);
  return { context, page };
}

async function addMember(page: Page, name: string, dateOfBirth: string) {
  await page.goto('/profiles');
  await page.getByRole('button', { name: 'Add Family Member' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Add Family Member' });
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByLabel('Date of Birth').fill(dateOfBirth);
  await dialog.getByRole('button', { name: 'Add Member' }).click();
  await page.getByRole('heading', { name }).waitFor();
}

async function addContact(page: Page, name: string, type: string, caresFor: string[]) {
  await page.goto('/contacts/new');
  const group = page.getByRole('group', { name: 'Cares For' });
  for (const person of caresFor) await group.getByLabel(person, { exact: true }).check();
  await page.getByLabel('Contact Name').fill(name);
  await page.getByLabel('Contact Type').selectOption(type);
  await page.getByRole('button', { name: 'Save Contact' }).click();
  await expectText(page, 'Contact added', `saving the contact ${name}`);
}

async function miaPdf(page: Page, wholeFamily: boolean): Promise<string> {
  await page.goto('/share');
  await page.getByRole('button', { name: /Export as PDF/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Export as PDF' });
  await dialog.getByLabel('Person').selectOption({ label: 'Mia' });
  const whole = dialog.getByLabel('Include whole-family contacts');
  await whole.setChecked(wholeFamily);
  if (!wholeFamily) await snap(page, 'export-pdf');
  const downloading = page.waitForEvent('download');
  await dialog.getByRole('button', { name: 'Download PDF' }).click();
  const file = await (await downloading).path();
  if (!wholeFamily) {
    shot += 1;
    const name = `${String(shot).padStart(2, '0')}-mia-pdf`;
    execFileSync('pdftoppm', [
      '-png',
      '-r',
      '60',
      '-f',
      '1',
      '-l',
      '1',
      '-singlefile',
      file,
      path.join(outDir, name),
    ]);
    console.log(`${name}.png`);
  }
  const text = await pdfText(file);
  return text.replace(/\s+/g, ' ');
}

const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
try {
  // 1. Maria signs up through the form, and sees how strong her password is.
  const { context, page } = await signUp(
    browser,
    'Maria Garcia',
    'maria@example.com',
    'kestrel-orchard-42',
  );
  await snap(page, 'sign-up');
  await page.getByRole('button', { name: 'Sign Up' }).click();
  await page.getByRole('heading', { name: 'Welcome, Maria!' }).waitFor();
  await expectText(page, 'Account created successfully.', 'the timeline after sign-up');
  check(
    (await page.getByText(/You can now sign in/).count()) === 0,
    "after sign-up the screen says 'You can now sign in'",
  );
  await snap(page, 'welcome');

  // 2. Two children and a grandmother.
  const miaBorn = day(0, 6);
  await addMember(page, 'Mia', miaBorn);
  await addMember(page, 'Leo', day(0, 3));
  await addMember(page, 'Rosa', '1951-03-08');
  await snap(page, 'family-members');

  // 3. Mia's inhaler, entered today, taken since two months ago.
  await page.goto('/medications/new');
  await page.getByLabel('Family Member').selectOption({ label: 'Mia' });
  await page.getByLabel('Medication Name').fill('Inhaler');
  await page.getByLabel('Dosage').fill('2 puffs');
  await page.getByLabel('Frequency').selectOption('Twice Daily');
  await page.getByLabel('Morning', { exact: true }).check();
  await page.getByLabel('Evening', { exact: true }).check();
  await page.getByLabel('Start Date').fill(day(-60));
  await snap(page, 'medication-form');
  await page.getByRole('button', { name: 'Save Medication' }).click();
  await expectText(page, 'Medication created', 'saving the inhaler');

  // 4. Mia's paediatrician, the family's pharmacy, Rosa's cardiologist.
  await addContact(page, 'Dr. Nadia Paed', 'Doctor', ['Mia']);
  await addContact(page, 'Corner Pharmacy', 'Pharmacy', []);
  await addContact(page, 'Dr. Omar Heart', 'Specialist', ['Rosa']);
  await page.goto('/contacts');
  const pharmacy = page.getByRole('link', { name: /Corner Pharmacy/ });
  check(
    (await pharmacy.textContent())?.includes('Whole family') ?? false,
    'pharmacy not shown as Whole family',
  );
  await snap(page, 'contacts');
  await snap(page, 'contacts', true);

  // Asthma in the family, recorded for Mia: her grandmother's.
  await page.goto('/history/new');
  await page.getByLabel('Family Member').selectOption({ label: 'Mia' });
  await page.getByLabel('Condition Name').fill('Asthma');
  await page.getByLabel('Family History').check();
  await page.getByLabel('Relation').fill('Grandmother');
  await page.getByRole('button', { name: 'Save Condition' }).click();
  await expectText(page, 'Condition added', "saving Mia's family history");

  // 5. This morning's puff taken.
  await page.goto('/');
  const today = page.getByRole('region', { name: "Today's Medications" });
  await today.getByRole('button', { name: 'Mark Inhaler Morning taken' }).click();
  await today.getByText(/^Taken at /).waitFor();

  // 6. Mia's FHIR file, downloaded and imported back: all already here.
  await page.goto('/profile-settings');
  await page.getByLabel('Person').selectOption({ label: 'Mia' });
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download FHIR (R4)' }).click();
  const fhir = await (await downloading).path();
  await page.getByLabel('Import from a file').setInputFiles(fhir);
  const preview = page.getByRole('region', { name: 'Import preview' });
  await expectText(page, /For Mia: 0 new, \d+ already here, 0 changed/, 'the re-import preview');
  await preview.scrollIntoViewIfNeeded();
  await snap(page, 'import-preview');
  await preview.getByRole('button', { name: 'Import' }).click();
  await expectText(page, /For Mia: Imported nothing/, 'the re-import');

  // 7. Today's Medications: the inhaler once per slot.
  await page.goto('/');
  await today.getByRole('button', { name: 'Mark Inhaler Evening taken' }).waitFor();
  const evening = await today.getByRole('button', { name: 'Mark Inhaler Evening taken' }).count();
  const morning = await today.getByRole('button', { name: 'Mark Inhaler Morning taken' }).count();
  check(evening === 1, `the inhaler's evening dose is listed ${String(evening)} times`);
  check(morning === 0, `the inhaler's morning dose is offered again after being taken`);
  const medications = (await (await page.request.get('/api/medications')).json()) as {
    items: { id: string; medication_name: string }[];
  };
  check(
    medications.items.length === 1,
    `${String(medications.items.length)} medications after the re-import`,
  );
  await snap(page, 'today');
  await snap(page, 'today', true);

  // 8. The inhaler's adherence: days before it was entered are not tracked, not missed.
  await page.goto(`/medications/${medications.items[0]?.id ?? ''}`);
  await expectText(page, 'Adherence (30 days)', 'the medication detail');
  await expectText(page, /^Not tracked before /, 'the adherence of a back-dated medication');
  const detail = (await page.locator('main').textContent()) ?? '';
  check(!/\d+ missed/.test(detail), `the medication detail invents misses: ${detail}`);
  await snap(page, 'medication-detail');
  await snap(page, 'medication-detail', true);

  // 8a. Rosa's vaccine schedule is an adult's: nothing of her childhood, nothing overdue since
  // before she was 19, the adult vaccines due now, MMR and Varicella presumed immune.
  await page.goto('/shots?tab=schedule');
  await page.getByLabel('Person').selectOption({ label: 'Rosa' });
  const rosaSchedule = page.getByRole('list', { name: 'Vaccine schedule' });
  await rosaSchedule.waitFor();
  const rosaText = (await rosaSchedule.textContent()) ?? '';
  check(!rosaText.includes('Overdue'), `Rosa's schedule has a dose overdue: ${rosaText}`);
  check(!/19[5-6]\d/.test(rosaText), `Rosa's schedule dates a dose in her childhood: ${rosaText}`);
  for (const childhood of ['MMR', 'Varicella', 'DTaP', 'Hib', 'Rotavirus', 'PCV', 'HPV']) {
    const rows = await rosaSchedule
      .getByRole('listitem')
      .filter({ hasText: new RegExp(`^${childhood}Dose`) })
      .count();
    check(rows === 0, `Rosa's schedule lists ${childhood}`);
  }
  for (const adult of ['Zoster', 'Pneumococcal', 'Tdap', 'Influenza', 'COVID-19']) {
    check(rosaText.includes(adult), `Rosa's schedule has no ${adult}`);
  }
  await expectText(page, 'MMR: presumed immune', "Rosa's immunity to measles");
  await snap(page, 'grandmother-schedule');
  await snap(page, 'grandmother-schedule', true);

  // 8b. Mia's next DTaP dose, given today and recorded from her Schedule tab: it is given.
  await page.getByLabel('Person').selectOption({ label: 'Mia' });
  const recordDtap = page.getByRole('link', { name: /^Record DTaP dose \d+$/ }).first();
  await recordDtap.waitFor();
  const dtapDose = ((await recordDtap.textContent()) ?? '').replace('Record ', '');
  await recordDtap.click();
  check(
    (await page.getByLabel('Date Administered').inputValue()) === day(0),
    'the shot form is not dated today',
  );
  await page.getByRole('button', { name: 'Save Shot' }).click();
  await expectText(page, 'Shot created', `saving ${dtapDose}`);
  check(
    (await page.getByRole('tab', { name: /^Past/ }).getAttribute('aria-selected')) === 'true',
    `${dtapDose}, given today, is not shown under Past`,
  );
  await expectText(page, dtapDose, `${dtapDose} in the Past list`);
  await snap(page, 'dose-given-today');

  // 8c. Mia's weight, added from her chip on /vitals: the form opens on Mia, and the entry is
  // on her chart after saving.
  await page.goto('/vitals');
  const strip = page.getByRole('group', { name: 'Filter by family member' });
  await strip.getByRole('button', { name: 'Mia', exact: true }).click();
  await page.waitForURL(/[?&]person=/);
  await page.getByRole('button', { name: 'Add Vitals' }).click();
  const vitalsFor = await page.getByLabel('Family Member', { exact: true }).inputValue();
  const members = (await (await page.request.get('/api/family-members')).json()) as {
    id: string;
    name: string;
  }[];
  const miaId = members.find((member) => member.name === 'Mia')?.id;
  check(vitalsFor === miaId, `'Add Vitals' with Mia chosen opens on '${vitalsFor}', not Mia`);
  check(
    (await page.getByLabel('Measured At').inputValue()).startsWith(day(0)),
    "'Measured At' does not start at now",
  );
  await page.getByLabel('Weight (kg)').fill('21.4');
  await page.getByRole('button', { name: 'Save Vitals' }).click();
  await page.waitForURL(new RegExp(`/vitals\\?person=${miaId ?? ''}$`));
  await page.getByRole('table').getByRole('cell', { name: '21.4 kg' }).waitFor();
  check(
    (await strip.getByRole('button', { name: 'Mia', exact: true }).getAttribute('aria-pressed')) ===
      'true',
    "after saving Mia's weight, /vitals is not on Mia",
  );
  await snap(page, 'vitals-from-chip');

  // 8d. The inhaler's prescription, uploaded, then attached to the inhaler from its page.
  await page.goto('/documents?upload');
  const upload = page.getByRole('dialog', { name: 'Upload Document' });
  await upload.getByLabel('File').setInputFiles({
    name: 'inhaler-prescription.pdf',
    mimeType: 'application/pdf',
    buffer: await samplePdf(),
  });
  await upload.getByLabel('Family Member').selectOption({ label: 'Mia' });
  await upload.getByRole('button', { name: 'Upload' }).click();
  await page.getByRole('img', { name: 'inhaler-prescription.pdf thumbnail' }).click();
  await page.getByRole('button', { name: 'Edit Document' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Document' });
  await edit.getByLabel('Document Type').selectOption('Prescription');
  const inhaler = edit
    .getByLabel('Attached To')
    .locator('option', { hasText: 'Medication: Inhaler' });
  check((await inhaler.count()) === 1, "'Attached To' does not offer Mia's inhaler");
  await edit.getByLabel('Attached To').selectOption((await inhaler.getAttribute('value')) ?? '');
  await snap(page, 'document-edit');
  await edit.getByRole('button', { name: 'Save' }).click();
  await edit.waitFor({ state: 'hidden' });
  await page.goto(`/medications/${medications.items[0]?.id ?? ''}`);
  await page.getByRole('img', { name: 'inhaler-prescription.pdf thumbnail' }).waitFor();
  await snap(page, 'document-on-medication');
  await page.goto('/documents');
  const copies = await page
    .getByRole('img', { name: 'inhaler-prescription.pdf thumbnail' })
    .count();
  check(copies === 1, `the prescription is listed ${String(copies)} times on /documents`);

  // 9. Mia's PDF: her care team is hers; the pharmacy only when asked for; today's DTaP dose
  // among her immunizations.
  const own = await miaPdf(page, false);
  check(own.includes(dtapDose), `Mia's PDF leaves out ${dtapDose}, given today`);
  check(own.includes('Care Team'), "Mia's PDF has no Care Team");
  check(own.includes('Dr. Nadia Paed'), "Mia's PDF leaves out her paediatrician");
  check(!own.includes('Dr. Omar Heart'), "Mia's PDF lists Rosa's cardiologist");
  check(!own.includes('Corner Pharmacy'), "Mia's PDF lists the whole family's pharmacy unasked");
  check(
    /Family History Condition Relation .*Asthma Grandmother/.test(own),
    "Mia's PDF has no family history",
  );
  const withFamily = await miaPdf(page, true);
  check(
    withFamily.includes('Corner Pharmacy'),
    "Mia's PDF with whole-family contacts has no pharmacy",
  );
  check(
    !withFamily.includes('Dr. Omar Heart'),
    "Mia's PDF with whole-family contacts lists Rosa's cardiologist",
  );

  // 10. Mia's share link, opened by her doctor: the same care team as her PDF.
  await page.goto('/share');
  await page.getByRole('button', { name: 'Generate Share Link', exact: true }).click();
  const linkDialog = page.getByRole('dialog', { name: 'Generate Share Link' });
  await linkDialog.getByLabel('Person').selectOption({ label: 'Mia' });
  await linkDialog.getByLabel('Link Passcode').fill('2468');
  await linkDialog.getByRole('button', { name: 'Create Link' }).click();
  const link = await linkDialog.getByLabel('Share Link').inputValue();
  const doctor = await browser.newContext({ viewport: PHONE, deviceScaleFactor: 1 });
  const viewer = await doctor.newPage();
  await viewer.goto(link);
  await viewer.getByLabel('Your name').fill('Dr. Nadia Paed');
  await viewer.getByLabel('Passcode').fill('2468');
  await viewer.getByRole('button', { name: 'Open' }).click();
  await viewer.getByRole('heading', { name: 'Mia' }).waitFor();
  const team = await regionText(viewer, 'Care Team', "Mia's share link");
  check(team.includes('Dr. Nadia Paed'), `Mia's share link leaves out her paediatrician: ${team}`);
  check(!/Omar Heart|Corner Pharmacy/.test(team), `Mia's share link's care team: ${team}`);
  const immunizations = await regionText(viewer, 'Immunizations', "Mia's share link");
  check(
    immunizations.includes(dtapDose) && !/Due/.test(immunizations),
    `Mia's share link does not list ${dtapDose} as given today: ${immunizations}`,
  );
  const history = await regionText(viewer, 'Family History', "Mia's share link");
  check(/Asthma.*Grandmother/.test(history), `Mia's share link's family history: ${history}`);
  await snap(viewer, 'share-link-viewer');
  await doctor.close();

  // 11. The other parent signs up, is given Viewer access to Mia, and accepts with the code.
  const daniel = await signUp(browser, 'Daniel Garcia', 'daniel@example.com', 'river-lantern-17');
  await daniel.page.getByRole('button', { name: 'Sign Up' }).click();
  await daniel.page.getByRole('heading', { name: 'Welcome, Daniel!' }).waitFor();
  await page.goto('/profiles');
  await page.getByRole('button', { name: 'Share access to Mia' }).click();
  const share = page.getByRole('dialog', { name: 'Share Access' });
  await share.getByLabel('Email').fill('daniel@example.com');
  await share.getByLabel('Role').selectOption({ label: 'Viewer' });
  await share.getByRole('button', { name: 'Grant Access' }).click();
  const code = await share.getByLabel('Acceptance Code').inputValue();
  check(/^[A-Z2-9]{5}-[A-Z2-9]{5}$/.test(code), `the Acceptance Code reads '${code}'`);
  await snap(page, 'share-access');
  await share.getByRole('button', { name: 'Done' }).click();
  await daniel.page.goto('/profiles');
  const shared = daniel.page.getByRole('region', { name: 'Shared with you' });
  await shared.getByLabel('Acceptance Code').fill(code);
  await shared.getByRole('button', { name: 'Accept' }).click();
  await shared.getByText('Shared by Maria Garcia').waitFor();
  await shared.scrollIntoViewIfNeeded();
  await snap(daniel.page, 'shared-with-you');
  await daniel.context.close();

  // 12. A shot before Mia was born is refused, naming the field.
  await page.goto('/shots/new');
  await page.getByLabel('Family Member').selectOption({ label: 'Mia' });
  await page.getByLabel('Shot Name').fill('MMR');
  await page.getByLabel('Date Administered').fill(day(-10, 6));
  await page.getByRole('button', { name: 'Save Shot' }).click();
  await expectText(
    page,
    `Date Administered cannot be before Mia's Date of Birth (${miaBorn})`,
    'a shot before Mia was born',
  );
  await snap(page, 'impossible-date');

  // 13. A visit half typed, and a tab tapped: asked first.
  await page.goto('/visits/new');
  await page.getByLabel('Visit Purpose').fill('Asthma review');
  await page.getByLabel('Doctor Name').fill('Dr. Nadia Paed');
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Timeline' })
    .click();
  const confirm = page.getByRole('alertdialog', { name: 'Discard changes?' });
  await confirm.waitFor();
  await snap(page, 'discard-changes');
  await snap(page, 'discard-changes', true);
  await confirm.getByRole('button', { name: 'Keep editing' }).click();
  await context.close();
  console.log(`The family's journey: ${String(shot)} screenshots in ${outDir}`);
} finally {
  await browser.close();
  await stop();
}
