/**
 * Every record type through its screens: create → list → detail → edit → delete, with the
 * exact toasts, labels and confirm of SPEC.md and CONTRACT.md.
 */
import type { Page } from '@playwright/test';
import { addMemberViaApi, createRecordViaApi, expect, expectAccessible, test } from './fixtures';

function localDate(offsetDays: number): string {
  const date = new Date();
  date.setDate(date.getDate() + offsetDays);
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
}

interface RecordCase {
  noun: string;
  path: string;
  title: string;
  fill: (page: Page) => Promise<void>;
  /** Text the detail shows for what was filled in. */
  detail: string[];
  /** A field to change on edit, and its new value. */
  edit: { label: string; value: string };
  created: string;
  updated: string;
  deleted: string;
  afterEdit: 'detail' | 'list';
  /** What the list shows besides the title (card details, section headings). */
  list?: string[];
}

const cases: RecordCase[] = [
  {
    noun: 'Visit',
    path: 'visits',
    title: 'Annual checkup',
    fill: async (page) => {
      await page.getByLabel('Visit Purpose').fill('Annual checkup');
      await page.getByLabel('Doctor Name').fill('Dr. Patel');
      await page.getByLabel('Visit Date').fill(`${localDate(3)}T09:30`);
      await page.getByLabel('Frequency').fill('Yearly');
      await page.getByLabel('Office/Hospital').fill('Riverside Clinic');
      await page.getByLabel('Notes').fill('Bring the medication list.');
      await page.getByLabel('Family Member').selectOption({ label: 'Leo' });
    },
    detail: ['Dr. Patel', 'Riverside Clinic', 'Yearly', 'Bring the medication list.', 'Leo'],
    edit: { label: 'Doctor Name', value: 'Dr. Jones' },
    created: 'Visit created',
    updated: 'Visit updated',
    deleted: 'Visit deleted',
    afterEdit: 'detail',
    list: ['Dr. Patel', 'For: Leo', 'Yearly', '9:30 AM'],
  },
  {
    noun: 'Medication',
    path: 'medications',
    title: 'Lisinopril',
    fill: async (page) => {
      await page.getByLabel('Medication Name').fill('Lisinopril');
      await page.getByLabel('Dosage').fill('10 mg');
      await page.getByLabel('Frequency').selectOption('Twice Daily');
      await page.getByLabel('Morning').check();
      await page.getByLabel('Night').check();
      await page.getByLabel('Start Date').fill(localDate(-10));
      await page.getByLabel('Condition').fill('Blood pressure');
      await page.getByLabel('Prescribed By').fill('Dr. Patel');
    },
    detail: ['10 mg', 'Twice Daily', 'Morning, Night', 'Blood pressure', 'Dr. Patel'],
    edit: { label: 'Dosage', value: '20 mg' },
    created: 'Medication created',
    updated: 'Medication updated',
    deleted: 'Medication deleted',
    afterEdit: 'detail',
    list: ['Morning', 'Night'],
  },
  {
    noun: 'Shot',
    path: 'shots',
    title: 'Flu vaccine',
    fill: async (page) => {
      await page.getByLabel('Shot Name').fill('Flu vaccine');
      await page.getByLabel('Date Administered').fill(localDate(0));
      await page.getByLabel('Location').fill('Pharmacy');
      await page.getByLabel('Notes').fill('Left arm');
    },
    detail: ['Pharmacy', 'Left arm'],
    edit: { label: 'Location', value: 'Clinic' },
    created: 'Shot created',
    updated: 'Shot updated',
    deleted: 'Shot deleted',
    afterEdit: 'detail',
  },
  {
    noun: 'Note',
    path: 'notes',
    title: 'Referral letter',
    fill: async (page) => {
      await page.getByLabel('Title').fill('Referral letter');
      await page.getByLabel('Note Type').selectOption('Referral');
      await page.getByLabel('Note Date').fill(localDate(-2));
      await page.getByLabel('Content').fill('Referred to cardiology for an echocardiogram.');
    },
    detail: ['Referral', 'Referred to cardiology for an echocardiogram.'],
    edit: { label: 'Title', value: 'Cardiology referral' },
    created: 'Note added',
    updated: 'Note updated',
    deleted: 'Note deleted',
    afterEdit: 'list',
    list: ['Referral', 'Referred to cardiology for an echocardiogram.'],
  },
  {
    noun: 'Condition',
    path: 'history',
    title: 'Asthma',
    fill: async (page) => {
      await page.getByLabel('Condition Name').fill('Asthma');
      await page.getByLabel('Diagnosis Date').fill('2015-06-01');
      await page.getByLabel('Status').selectOption('Under Treatment');
      await page.getByLabel('Notes').fill('Mild, seasonal.');
    },
    detail: ['Under Treatment', 'Mild, seasonal.', 'June 1, 2015'],
    edit: { label: 'Condition Name', value: 'Allergic asthma' },
    created: 'Condition added',
    updated: 'Condition updated',
    deleted: 'Condition deleted',
    afterEdit: 'list',
    list: ['Under Treatment', 'Diagnosed Jun 1, 2015'],
  },
  {
    noun: 'Insurance',
    path: 'insurance',
    title: 'SmileCare',
    fill: async (page) => {
      await expect(page.getByLabel('Insurance Type')).toHaveValue('Medical');
      await expect(page.getByLabel('Status')).toHaveValue('current');
      await page.getByLabel('Insurance Type').selectOption('Dental');
      await page.getByLabel('Provider Name').fill('SmileCare');
      await page.getByLabel('Policy Number').fill('SC-123');
      await page.getByLabel('Group Number').fill('G-9');
      await page.getByLabel('Coverage Details').fill('Two cleanings a year');
      await page.getByLabel('Deductible').fill('$50');
      await page.getByLabel('Copay').fill('$10');
      await page.getByLabel('Effective Date').fill('2026-01-01');
      await page.getByLabel('Expiry Date').fill('2026-12-31');
    },
    detail: ['SC-123', 'G-9', 'Two cleanings a year', '$50', '$10', 'Current'],
    edit: { label: 'Provider Name', value: 'SmileCare Plus' },
    created: 'Insurance added',
    updated: 'Insurance updated',
    deleted: 'Insurance deleted',
    afterEdit: 'list',
    list: ['Current Insurance', 'Policy SC-123'],
  },
  {
    noun: 'Allergy',
    path: 'allergies',
    title: 'Peanuts',
    fill: async (page) => {
      await expect(page.getByLabel('Status')).toHaveValue('Active');
      await page.getByLabel('Substance').fill('Peanuts');
      await page.getByLabel('Reaction').fill('Hives and swelling');
      await page.getByLabel('Severity').selectOption('Severe');
      await page.getByLabel('Category').selectOption('Food');
      await page.getByLabel('Noted Date').fill(localDate(-400));
      await page.getByLabel('Notes').fill('Carries an epinephrine pen.');
      await page.getByLabel('Family Member').selectOption({ label: 'Leo' });
    },
    detail: ['Hives and swelling', 'Severe', 'Food', 'Carries an epinephrine pen.', 'Leo'],
    edit: { label: 'Reaction', value: 'Anaphylaxis' },
    created: 'Allergy added',
    updated: 'Allergy updated',
    deleted: 'Allergy deleted',
    afterEdit: 'detail',
    list: ['Hives and swelling', 'Severe', 'Food'],
  },
  {
    noun: 'Contact',
    path: 'contacts',
    title: 'Dr. Priya Patel',
    fill: async (page) => {
      await expect(page.getByLabel('Contact Type')).toHaveValue('Doctor');
      await page.getByLabel('Contact Name').fill('Dr. Priya Patel');
      await page.getByLabel('Contact Type').selectOption('Specialist');
      await page.getByLabel('Specialty').fill('Cardiology');
      await expect(page.getByLabel('Phone Number')).toHaveAttribute('type', 'tel');
      await page.getByLabel('Phone Number').fill('+1 555 0100');
      await expect(page.getByLabel('Email')).toHaveAttribute('type', 'email');
      await page.getByLabel('Email').fill('priya@example.com');
      await page.getByLabel('Address').fill('1 Main St');
    },
    detail: ['Specialist', 'Cardiology', '+1 555 0100', 'priya@example.com', '1 Main St'],
    edit: { label: 'Specialty', value: 'Family medicine' },
    created: 'Contact added',
    updated: 'Contact updated',
    deleted: 'Contact deleted',
    afterEdit: 'list',
    list: ['Specialist', 'Cardiology'],
  },
];

for (const record of cases) {
  test(`${record.path}: create, list, detail, edit, delete`, async ({ page, user }) => {
    void user;
    await addMemberViaApi(page, { name: 'Leo', color: '#3b82f6' });
    await page.goto(`/${record.path}/new`);
    await expect(page.getByRole('heading', { name: `New ${record.noun}` })).toBeVisible();
    await record.fill(page);
    await expectAccessible(page);
    await page.getByRole('button', { name: `Save ${record.noun}` }).click();

    // A create returns to the list (a shot given today: on its 'Past' tab).
    await expect(page.getByText(record.created, { exact: true })).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/${record.path}(\\?tab=past)?$`));
    // A medication taken at two times of day is in two groups: its first card will do.
    const card = page.getByRole('link', { name: new RegExp(record.title) }).first();
    await expect(card).toBeVisible();
    for (const text of record.list ?? [])
      await expect(page.getByText(text, { exact: true }).first()).toBeVisible();
    await expectAccessible(page);

    await card.click();
    await expect(page).toHaveURL(new RegExp(`/${record.path}/[0-9a-f-]{36}$`));
    await expect(page.getByRole('heading', { name: record.title })).toBeVisible();
    for (const text of record.detail)
      await expect(page.getByText(text, { exact: true }).first()).toBeVisible();
    await expectAccessible(page);
    const detailUrl = page.url();

    await page.getByRole('button', { name: `Edit ${record.noun}` }).click();
    await expect(page).toHaveURL(`${detailUrl}/edit`);
    await expect(page.getByRole('heading', { name: `Edit ${record.noun}` })).toBeVisible();
    await expect(page.getByLabel(record.edit.label)).not.toHaveValue('');
    await page.getByLabel(record.edit.label).fill(record.edit.value);
    await page.getByRole('button', { name: `Update ${record.noun}` }).click();
    await expect(page.getByText(record.updated, { exact: true })).toBeVisible();
    if (record.afterEdit === 'detail') {
      await expect(page).toHaveURL(detailUrl);
      await expect(page.getByText(record.edit.value, { exact: true }).first()).toBeVisible();
    } else {
      await expect(page).toHaveURL(new RegExp(`/${record.path}$`));
      await expect(page.getByText(record.edit.value).first()).toBeVisible();
      await page.goto(detailUrl);
    }

    await page.getByRole('button', { name: `Delete ${record.noun}` }).click();
    const confirm = page.getByRole('alertdialog');
    await expect(confirm.getByRole('heading', { name: 'Are you sure?' })).toBeVisible();
    await expect(
      confirm.getByText(
        `This action cannot be undone. This will permanently delete this ${record.noun.toLowerCase()}.`,
      ),
    ).toBeVisible();
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(confirm).toBeHidden();
    await page.getByRole('button', { name: `Delete ${record.noun}` }).click();
    await page
      .getByRole('alertdialog')
      .getByRole('button', { name: /^Delete/ })
      .click();
    await expect(page.getByText(record.deleted, { exact: true })).toBeVisible();
    // Back on the list, on the tab that held it (a shot given today: 'Past').
    await expect(page).toHaveURL(new RegExp(`/${record.path}(\\?tab=past)?$`));
    await expect(page.getByRole('link', { name: new RegExp(record.title) })).toHaveCount(0);

    await page.goto(detailUrl);
    await expect(page.getByText(`${record.noun} not found`)).toBeVisible();
  });
}

test('visits split into upcoming and past tabs with counts and empty states', async ({
  page,
  user,
}) => {
  void user;
  await page.goto('/visits');
  await expect(page.getByRole('tab', { name: 'Upcoming (0)' })).toBeVisible();
  await expect(page.getByText('No upcoming visits')).toBeVisible();
  await page.getByRole('link', { name: 'Schedule your first visit' }).click();
  await expect(page).toHaveURL(/\/visits\/new$/);

  await page.getByLabel('Visit Purpose').fill('Old visit');
  await page.getByLabel('Visit Date').fill(`${localDate(-30)}T10:00`);
  await page.getByRole('button', { name: 'Save Visit' }).click();
  await expect(page.getByRole('tab', { name: 'Past (1)' })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Upcoming (0)' })).toBeVisible();
  await page.getByRole('tab', { name: 'Past (1)' }).click();
  await expect(page.getByRole('link', { name: /Old visit/ })).toBeVisible();
  await page.getByRole('button', { name: 'Add New Visit' }).click();
  await expect(page).toHaveURL(/\/visits\/new$/);
});

test('medications: current by time of day, past by condition, with counts', async ({
  page,
  user,
}) => {
  void user;
  await page.goto('/medications');
  await expect(page.getByRole('tab', { name: 'Current(0)' })).toBeVisible();
  await expect(page.getByText('No current medications')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Add your first medication' })).toBeVisible();
  await page.getByRole('tab', { name: 'Past(0)' }).click();
  await expect(page.getByText('No past medications')).toBeVisible();

  const base = test.info().project.use.baseURL ?? '';
  for (const data of [
    { medication_name: 'Vitamin D', time_morning: true, time_evening: true },
    {
      medication_name: 'Amoxicillin',
      start_date: localDate(-20),
      end_date: localDate(-10),
      condition: 'Ear infection',
    },
    { medication_name: 'Ibuprofen', start_date: localDate(-20), end_date: localDate(-1) },
  ]) {
    await page.request.post('/api/medications', { data, headers: { origin: base } });
  }
  await page.reload();
  // The tab chosen is kept in the URL, a reload included.
  await expect(page.getByRole('tab', { name: 'Past(2)' })).toHaveAttribute('aria-selected', 'true');
  await page.getByRole('tab', { name: 'Current(1)' }).click();
  const morning = page.getByRole('region', { name: 'Morning' });
  await expect(morning.getByRole('link', { name: /Vitamin D/ })).toBeVisible();
  await expect(
    page.getByRole('region', { name: 'Evening' }).getByRole('link', { name: /Vitamin D/ }),
  ).toBeVisible();
  await page.getByRole('tab', { name: 'Past(2)' }).click();
  await expect(
    page.getByRole('region', { name: 'Ear infection' }).getByRole('link', { name: /Amoxicillin/ }),
  ).toBeVisible();
  await expect(
    page.getByRole('region', { name: 'Other' }).getByRole('link', { name: /Ibuprofen/ }),
  ).toBeVisible();
});

test('shots: one dated today is given (Past), tomorrow’s is upcoming', async ({ page, user }) => {
  void user;
  const base = test.info().project.use.baseURL ?? '';
  await page.request.post('/api/shots', {
    data: { shot_name: 'Tomorrow shot', date_administered: localDate(1) },
    headers: { origin: base },
  });
  await page.request.post('/api/shots', {
    data: { shot_name: 'Old shot', date_administered: localDate(-1) },
    headers: { origin: base },
  });
  await page.request.post('/api/shots', {
    data: { shot_name: 'Undated shot' },
    headers: { origin: base },
  });
  await page.goto('/shots/new');
  await page.getByLabel('Shot Name').fill('Today shot');
  await page.getByLabel('Date Administered').fill(localDate(0));
  await page.getByRole('button', { name: 'Save Shot' }).click();
  // Saved as given: the list opens on 'Past', where it is.
  await expect(page).toHaveURL(/\/shots\?tab=past$/);
  await expect(page.getByRole('tab', { name: 'Past(2)' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('link', { name: /Today shot/ })).toBeVisible();
  await expect(page.getByRole('link', { name: /Old shot/ })).toBeVisible();
  await page.getByRole('tab', { name: 'Upcoming(1)' }).click();
  await expect(page.getByRole('link', { name: /Tomorrow shot/ })).toBeVisible();
  await expect(page.getByRole('link', { name: /Today shot/ })).toBeHidden();
  await expect(page.getByText('Undated shot')).toHaveCount(0);
  await page.screenshot({ path: test.info().outputPath('shots-upcoming.png') });
});

test('a form refuses to save without its required fields, and the server’s refusal is shown', async ({
  page,
  user,
}) => {
  void user;
  await page.goto('/visits/new');
  await expect(page.getByLabel('Visit Purpose')).toHaveAttribute('required', '');
  await expect(page.getByLabel('Visit Date')).toHaveAttribute('type', 'datetime-local');
  await page.getByRole('button', { name: 'Save Visit' }).click();
  await expect(page).toHaveURL(/\/visits\/new$/);

  // Signed out in another tab: saving says why.
  await page.getByLabel('Visit Purpose').fill('Checkup');
  await page.getByLabel('Visit Date').fill(`${localDate(1)}T08:00`);
  await page.context().clearCookies();
  await page.getByRole('button', { name: 'Save Visit' }).click();
  await expect(page.getByText('Error saving visit')).toBeVisible();
  await expect(page.getByText('Not authenticated')).toBeVisible();
});

test('health history: the family-history switch trades the member for a required relation', async ({
  page,
  user,
}) => {
  void user;
  await addMemberViaApi(page, { name: 'Leo' });
  await page.goto('/history');
  await expect(page.getByText('No health conditions recorded yet')).toBeVisible();
  await page.getByRole('button', { name: 'Add Condition' }).click();
  await expect(page.getByLabel('Family Member')).toBeVisible();
  await expect(page.getByLabel('Relation')).toHaveCount(0);
  await page.getByLabel('Condition Name').fill('Type 2 diabetes');
  await page.getByLabel('Family History').check();
  await expect(page.getByLabel('Family Member')).toHaveCount(0);
  await expect(page.getByLabel('Relation')).toHaveAttribute('required', '');
  await page.getByLabel('Relation').fill('Grandfather');
  await page.getByRole('button', { name: 'Save Condition' }).click();
  await expect(page.getByText('Condition added', { exact: true })).toBeVisible();
  await expect(page.getByText('Family History', { exact: true })).toBeVisible();
  await expect(page.getByText('Relation: Grandfather')).toBeVisible();
});

test('insurance lists current and past sections, past dimmed with its expiry', async ({
  page,
  user,
}) => {
  void user;
  // With no policy yet, both sections are there, and say so.
  await page.goto('/insurance');
  await expect(page.getByRole('heading', { name: 'Current Insurance' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Past Insurance' })).toBeVisible();
  await expect(page.getByText('No insurance policies yet')).toBeVisible();
  const base = test.info().project.use.baseURL ?? '';
  await page.request.post('/api/insurance', {
    data: { provider_name: 'BlueShield' },
    headers: { origin: base },
  });
  await page.request.post('/api/insurance', {
    data: {
      provider_name: 'OldCare',
      status: 'past',
      expiry_date: '2025-12-31',
      insurance_type: 'Vision',
    },
    headers: { origin: base },
  });
  await page.goto('/insurance');
  const current = page.getByRole('region', { name: 'Current Insurance' });
  const past = page.getByRole('region', { name: 'Past Insurance' });
  await expect(current.getByRole('link', { name: /BlueShield/ })).toBeVisible();
  await expect(past.getByRole('link', { name: /OldCare/ })).toBeVisible();
  await expect(past.getByText('Expired Dec 31, 2025')).toBeVisible();
  await expectAccessible(page);
});

test('a note’s preview on the list is at most two lines', async ({ page, user }) => {
  void user;
  const content = Array.from({ length: 12 }, (_, line) => `Line ${line + 1} of a long letter.`);
  await page.request.post('/api/notes', {
    data: { title: 'Referral letter', content: content.join('\n') },
    headers: { origin: test.info().project.use.baseURL ?? '' },
  });
  await page.goto('/notes');
  const preview = page.getByText(content[0]!);
  await expect(preview).toBeVisible();
  const lines = await preview.evaluate((element) => {
    const { height } = element.getBoundingClientRect();
    return height / Number.parseFloat(getComputedStyle(element).lineHeight);
  });
  expect(lines).toBeGreaterThan(1.5);
  expect(lines).toBeLessThanOrEqual(2.05);
});

test('grouped lists load their next page as the user scrolls, or from the Show more button', async ({
  page,
  user,
}) => {
  void user;
  const base = test.info().project.use.baseURL ?? '';
  const requests = [];
  for (let n = 1; n <= 55; n += 1) {
    const name = String(n).padStart(2, '0');
    requests.push(
      page.request.post('/api/medications', {
        data: {
          medication_name: `Med ${name}`,
          time_morning: n % 2 === 0,
          time_night: n % 2 === 1,
        },
        headers: { origin: base },
      }),
      page.request.post('/api/insurance', {
        data: { provider_name: `Insurer ${name}`, status: n % 3 ? 'current' : 'past' },
        headers: { origin: base },
      }),
    );
  }
  await Promise.all(requests);

  await page.goto('/medications');
  await expect(page.getByRole('link', { name: /Med \d\d/ })).toHaveCount(50);
  await page.getByRole('button', { name: 'Show more' }).scrollIntoViewIfNeeded();
  await expect(page.getByRole('link', { name: /Med \d\d/ })).toHaveCount(55);
  await expect(page.getByRole('button', { name: 'Show more' })).toHaveCount(0);

  // Without IntersectionObserver, the button loads the page; it keeps the focus meanwhile.
  await page.addInitScript(() => {
    delete (window as { IntersectionObserver?: unknown }).IntersectionObserver;
  });
  let releaseNextPage = () => {};
  const nextPageHeld = new Promise<void>((resolve) => (releaseNextPage = resolve));
  await page.route(/\/api\/insurance\?.*offset=50/, async (route) => {
    await nextPageHeld;
    await route.continue();
  });
  await page.goto('/insurance');
  await expect(page.getByRole('link', { name: /Insurer \d\d/ })).toHaveCount(50);
  await page.getByRole('button', { name: 'Show more' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: 'Loading...' })).toBeFocused();
  releaseNextPage();
  await expect(page.getByRole('link', { name: /Insurer \d\d/ })).toHaveCount(55);
  await expect(page.getByRole('button', { name: 'Show more' })).toHaveCount(0);
  await expect(
    page.getByRole('region', { name: 'Past Insurance' }).getByRole('link', { name: /Insurer/ }),
  ).toHaveCount(18);
});

test('long words and names stay inside the screen', async ({ page, user }) => {
  void user;
  const member = await addMemberViaApi(page, { name: `Maximiliana ${'Montgomery'.repeat(12)}` });
  const visit = await createRecordViaApi(page, 'visits', {
    visit_name: 'Checkup',
    visit_date: new Date(Date.now() + 86_400_000).toISOString(),
    doctor_name: `Dr. ${'Oppenheimer'.repeat(6)}`,
    office_name: `https://clinic.example.com/${'very-long-path-'.repeat(6)}`,
    family_member_id: member.id,
  });
  const fits = () => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
  await page.goto(`/visits/${visit.id}`);
  await expect(page.getByText('Checkup').first()).toBeVisible();
  expect(await fits()).toBe(true);
  for (const path of ['/visits', '/']) {
    await page.goto(path);
    await expect(page.getByRole('button', { name: /^Maximiliana/ })).toBeVisible();
    expect(await fits(), path).toBe(true);
  }
});
