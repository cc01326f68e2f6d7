/**
 * Where two things stand on the screen, for the layout tests. Each check is retried until it
 * holds (or the assertion timeout passes): a click or a new window size is answered by a
 * render that may land after the click returns, and a box measured in between is of neither
 * layout.
 */
import type { Locator } from '@playwright/test';
import { expect } from './fixtures';

/** As long as any other assertion waits (playwright.config.ts). */
const SETTLE_MS = 15_000;

export type Box = { x: number; y: number; width: number; height: number };

export const boxOf = async (locator: Locator): Promise<Box> => {
  const box = await locator.boundingBox();
  expect(box, 'the element is on the page').not.toBeNull();
  return box!;
};

/** Whether `right` stands wholly to the right of `left`, the two sharing some height. */
export async function expectSideBySide(left: Locator, right: Locator) {
  await expect(async () => {
    const [a, b] = [await boxOf(left), await boxOf(right)];
    expect(a.x + a.width).toBeLessThanOrEqual(b.x);
    expect(b.y).toBeLessThan(a.y + a.height);
    expect(a.y).toBeLessThan(b.y + b.height);
  }).toPass({ timeout: SETTLE_MS });
}

/** Whether `second` stands right of `first` on the same row: their tops within 2 px. */
export async function expectOnOneRow(first: Locator, second: Locator) {
  await expect(async () => {
    const [a, b] = [await boxOf(first), await boxOf(second)];
    expect(Math.abs(a.y - b.y)).toBeLessThan(2);
    expect(b.x).toBeGreaterThanOrEqual(a.x + a.width);
  }).toPass({ timeout: SETTLE_MS });
}

/** Whether `lower` is wholly below `upper`. */
export async function expectBelow(upper: Locator, lower: Locator) {
  await expect(async () => {
    const [a, b] = [await boxOf(upper), await boxOf(lower)];
    expect(b.y).toBeGreaterThanOrEqual(a.y + a.height);
  }).toPass({ timeout: SETTLE_MS });
}
