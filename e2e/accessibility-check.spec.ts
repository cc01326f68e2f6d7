/**
 * The accessibility check itself: it judges a screen once it is still. A toast that starts
 * to fade in (or out) while axe is reading the page is checked again once it has settled,
 * rather than failed for the contrast of its halfway frame or left out of the check.
 */
import { expect, expectAccessible, test } from './fixtures';

const page = `<!doctype html><html lang="en"><head><title>Toast</title>
<style>
  body { background: #fff; color: #111; font: 16px sans-serif; }
  [data-toast] { transition: opacity 1500ms linear; opacity: 0; }
  [data-toast][data-mounted] { opacity: 1; }
</style></head>
<body><main><h1>Saved records</h1><p>Nothing else moves here.</p></main>
<script>
  // A toast mounts the moment the check starts reading the page, as a save's toast did
  // on a busy machine, and fades in over a second and a half.
  const waitForAxe = setInterval(() => {
    if (!window.axe) return;
    clearInterval(waitForAxe);
    const toast = document.createElement('div');
    toast.setAttribute('role', 'status');
    toast.setAttribute('data-toast', '');
    toast.textContent = 'Visit created';
    document.body.append(toast);
    toast.getBoundingClientRect();
    toast.setAttribute('data-mounted', '');
  }, 1);
</script></body></html>`;

test('a toast fading in while the check runs is checked once it is still', async ({
  page: tab,
}) => {
  await tab.setContent(page);
  await expectAccessible(tab);
  // The toast was there, and was checked: it is not left out.
  await expect(tab.getByRole('status')).toHaveText('Visit created');
});

test('a toast still fading in is waited for, and its faint text is still found', async ({
  page: tab,
}) => {
  // Really too faint once still: the check must fail it, not skip it.
  await tab.setContent(
    page.replace(
      '[data-toast][data-mounted] { opacity: 1; }',
      '[data-toast][data-mounted] { opacity: 1; color: #bbb; }',
    ),
  );
  await expect(expectAccessible(tab)).rejects.toThrow(/color-contrast/);
});
