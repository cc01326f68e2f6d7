/**
 * The person in view (CONTRACT.md §6): with one member chosen in a list's member strip (or a
 * screen's 'Person' select), 'Add …' opens its form on that member, the filter survives a
 * reload and the return after saving, the list opens on the tab that holds what was saved,
 * and /share's dialogs open on the last person chosen.
 */
import { type Page } from '@playwright/test';
import { addMemberViaApi, expect, localDay, test } from './fixtures';

const strip = (page: Page) => page.getByRole('group', { name: 'Filter by family member' });

/** The strip shows this person chosen. */
const expectInView = (page: Page, name: string) =>
  expect(strip(page).getByRole('button', { name, exact: true })).toHaveAttribute(
    'aria-pressed',
    'true',
  );

/** A form of this title is open, on this person in 'Family Member'. */
async function expectFormFor(page: Page, title: string, personId: string) {
  await expect(page.getByRole('heading', { name: title })).toBeVisible();
  await expect(page.getByLabel('Family Member', { exact: true })).toHaveValue(personId);
}

/** Chooses a person in the member strip, and waits until the URL holds them. */
async function filterTo(page: Page, name: string) {
  await strip(page).getByRole('button', { name, exact: true }).click();
  await expectInView(page, name);
  await expect(page).toHaveURL(/[?&](person|member)=/);
}

test(
  'vitals filtered to Mia: Add Vitals opens on Mia, and the saved entry is on her chart',
  { tag: '@layout' },
  async ({ page, user }) => {
    void user;
    const mia = await addMemberViaApi(page, { name: 'Mia' });
    await page.goto('/vitals');
    await filterTo(page, 'Mia');
    // A reload keeps the filter: it lives in the URL.
    await page.reload();
    await expectInView(page, 'Mia');

    await page.getByRole('button', { name: 'Add Vitals' }).click();
    await expectFormFor(page, 'New Vitals', mia.id);
    await page.getByLabel('Measured At').fill(`${localDay(-1)}T09:30`);
    await page.getByLabel('Weight (kg)').fill('7.4');
    await page.getByRole('button', { name: 'Save Vitals' }).click();

    // Back on Mia's chart, not the account holder's.
    await expect(page).toHaveURL(new RegExp(`/vitals\\?person=${mia.id}$`));
    await expectInView(page, 'Mia');
    await expect(page.getByRole('table').getByRole('cell', { name: '7.4 kg' })).toBeVisible();
  },
);

test('lab results filtered to Mia: Add Lab Result and Add Panel open on Mia', async ({
  page,
  user,
}) => {
  void user;
  const mia = await addMemberViaApi(page, { name: 'Mia' });
  await page.goto('/labs');
  await filterTo(page, 'Mia');
  await page.getByRole('button', { name: 'Add Lab Result' }).click();
  await expectFormFor(page, 'New Lab Result', mia.id);
  await page.getByRole('link', { name: 'Back' }).click();

  await expect(page).toHaveURL(new RegExp(`/labs\\?person=${mia.id}$`));
  await page.getByRole('button', { name: 'Add Panel' }).click();
  await expectFormFor(page, 'New Lab Panel', mia.id);
});

test(
  'shots filtered to Mia: Add Shot opens on Mia; a past shot saved opens the Past tab',
  { tag: '@layout' },
  async ({ page, user }) => {
    void user;
    await addMemberViaApi(page, { name: 'Leo' });
    const mia = await addMemberViaApi(page, { name: 'Mia' });
    await page.goto('/shots');
    await filterTo(page, 'Mia');
    await page.getByRole('button', { name: 'Add Shot' }).click();
    await expectFormFor(page, 'New Shot', mia.id);
    await page.getByLabel('Shot Name').fill('Flu shot');
    await page.getByLabel('Date Administered').fill(localDay(-30));
    await page.getByRole('button', { name: 'Save Shot' }).click();

    await expect(page).toHaveURL(/\/shots\?/);
    await expect(page).toHaveURL(new RegExp(`person=${mia.id}`));
    await expect(page.getByRole('tab', { name: /^Past/ })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByRole('link', { name: /Flu shot/ })).toBeVisible();
    await expectInView(page, 'Mia');

    // The Schedule tab's Person is the person in view too.
    await page.getByRole('tab', { name: 'Schedule' }).click();
    await expect(page.getByLabel('Person', { exact: true })).toHaveValue(mia.id);

    // Back from the shot's page returns to her past shots.
    await page.getByRole('tab', { name: /^Past/ }).click();
    await page.getByRole('link', { name: /Flu shot/ }).click();
    await expect(page.getByRole('heading', { name: 'Shot Details' })).toBeVisible();
    await page.getByRole('link', { name: 'Back' }).click();
    await expect(page.getByRole('tab', { name: /^Past/ })).toHaveAttribute('aria-selected', 'true');
    await expectInView(page, 'Mia');
  },
);

test('a past visit saved opens the Past tab, with the visit in it', async ({ page, user }) => {
  void user;
  await page.goto('/visits');
  await page.getByRole('button', { name: 'Add New Visit' }).click();
  await page.getByLabel('Visit Purpose').fill('Ear check');
  await page.getByLabel('Visit Date').fill(`${localDay(-3)}T10:00`);
  await page.getByRole('button', { name: 'Save Visit' }).click();
  await expect(page).toHaveURL(/\/visits\?tab=past$/);
  await expect(page.getByRole('tab', { name: /^Past/ })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('link', { name: /Ear check/ })).toBeVisible();
});

test('the growth chart’s Person: Add Vitals opens on the child charted', async ({ page, user }) => {
  void user;
  await addMemberViaApi(page, {
    name: 'Leo',
    date_of_birth: localDay(-700),
    sex: 'male',
  });
  const mia = await addMemberViaApi(page, {
    name: 'Mia',
    date_of_birth: localDay(-200),
    sex: 'female',
  });
  await page.goto('/growth');
  await page.getByLabel('Person', { exact: true }).selectOption({ label: 'Mia' });
  await page.getByRole('button', { name: 'Add Vitals' }).click();
  await expectFormFor(page, 'New Vitals', mia.id);
});

test('documents filtered to Mia: Upload Document opens on Mia', async ({ page, user }) => {
  void user;
  const mia = await addMemberViaApi(page, { name: 'Mia' });
  await page.goto('/documents');
  await filterTo(page, 'Mia');
  await page.getByRole('button', { name: 'Upload Document' }).click();
  const dialog = page.getByRole('dialog', { name: 'Upload Document' });
  await expect(dialog.getByLabel('Family Member', { exact: true })).toHaveValue(mia.id);
});

test(
  'the timeline filtered to Mia: the Add New dialog’s forms open on Mia',
  { tag: '@layout' },
  async ({ page, user }) => {
    void user;
    const mia = await addMemberViaApi(page, { name: 'Mia' });
    await page.goto('/');
    await filterTo(page, 'Mia');
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('button', { name: 'Add' })
      .click();
    await page.getByRole('link', { name: 'New Note' }).click();
    await expectFormFor(page, 'New Note', mia.id);
  },
);

test('after Mia was in view on the timeline, Share’s dialogs open on Mia', async ({
  page,
  user,
}) => {
  void user;
  const mia = await addMemberViaApi(page, { name: 'Mia' });
  await page.goto('/');
  await filterTo(page, 'Mia');
  const nav = page.getByRole('navigation', { name: 'Main' });
  await nav.getByRole('link', { name: 'Share' }).click();
  await expect(page).toHaveURL(/\/share$/);
  await page.getByRole('button', { name: 'Generate Share Link', exact: true }).click();
  const link = page.getByRole('dialog', { name: 'Generate Share Link' });
  await expect(link.getByLabel('Person')).toHaveValue(mia.id);
  await page.keyboard.press('Escape');

  await page.getByRole('button', { name: 'Export as PDF', exact: true }).click();
  const pdf = page.getByRole('dialog', { name: 'Export as PDF' });
  await expect(pdf.getByLabel('Person')).toHaveValue(mia.id);
  await page.keyboard.press('Escape');

  // 'All' puts no one in view: Share opens on the account holder again.
  await page.goto('/');
  await strip(page).getByRole('button', { name: 'All', exact: true }).click();
  await nav.getByRole('link', { name: 'Share' }).click();
  await page.getByRole('button', { name: 'Generate Share Link', exact: true }).click();
  await expect(
    page.getByRole('dialog', { name: 'Generate Share Link' }).getByLabel('Person'),
  ).not.toHaveValue(mia.id);
});
