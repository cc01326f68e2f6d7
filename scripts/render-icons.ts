// The app's icons for home screens, drawn from its mark (the heart with a pulse on deep teal
// that the sign-in screen shows) and rendered to PNG by Chromium:
// `npx tsx scripts/render-icons.ts` rewrites src/web/public/icons/*.png. Run it again only
// when the mark changes; the PNGs are committed.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/chromium';

const outDir = 'src/web/public/icons';
/** The app's primary colour (src/web/styles.css, --primary). */
const TEAL = '#0f766e';
/** lucide's heart-pulse, as the sign-in screen draws it (24-unit grid). */
const HEART_PULSE = [
  'M2 9.5a5.5 5.5 0 0 1 9.591-3.676.56.56 0 0 0 .818 0A5.49 5.49 0 0 1 22 9.5c0 2.29-1.5 4-3 5.5l-5.492 5.313a2 2 0 0 1-3 .019L5 15c-1.5-1.5-3-3.2-3-5.5',
  'M3.22 13H9.5l.5-1 2 4.5 2-7 1.5 3.5h5.27',
];

/**
 * The mark on a 64-unit square: as on the sign-in screen (a 36 px glyph on a 64 px square
 * rounded by 24 px) for a plain icon, full-bleed for a maskable or Apple icon, whose
 * platform cuts its own shape (the glyph stays within the maskable safe circle of 80%).
 */
function markSvg(size: number, fullBleed: boolean): string {
  const glyph = 36;
  const offset = (64 - glyph) / 2;
  const radius = fullBleed ? 0 : 24;
  const paths = HEART_PULSE.map((d) => `<path d="${d}"/>`).join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 64 64">
<rect width="64" height="64" rx="${radius}" fill="${TEAL}"/>
<g transform="translate(${offset} ${offset}) scale(${glyph / 24})" fill="none" stroke="#fff" stroke-width="2" stroke-linecap="round" stroke-linejoin="round">${paths}</g>
</svg>`;
}

const icons = [
  { file: 'icon-192.png', size: 192, fullBleed: false },
  { file: 'icon-512.png', size: 512, fullBleed: false },
  { file: 'icon-maskable-512.png', size: 512, fullBleed: true },
  { file: 'apple-touch-icon.png', size: 180, fullBleed: true },
];

mkdirSync(outDir, { recursive: true });
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
try {
  for (const icon of icons) {
    const page = await browser.newPage({
      viewport: { width: icon.size, height: icon.size },
      deviceScaleFactor: 1,
    });
    await page.setContent(
      `<!doctype html><html><body style="margin:0;background:transparent">${markSvg(icon.size, icon.fullBleed)}</body></html>`,
    );
    await page.locator('svg').screenshot({
      path: path.join(outDir, icon.file),
      omitBackground: true,
    });
    await page.close();
  }
} finally {
  await browser.close();
}
