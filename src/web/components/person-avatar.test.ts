/** The initials' colour on each swatch a member can have: readable (WCAG AA, 4.5:1) on all. */
import { describe, expect, it } from 'vitest';
import { MEMBER_COLORS } from '../../shared/constants';
import { contrastRatio, initialsColorOn } from './person-avatar';

describe('PersonAvatar', () => {
  it('measures contrast as WCAG does', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#767676', '#ffffff')).toBeCloseTo(4.54, 2);
    expect(contrastRatio('var(--primary)', '#ffffff')).toBeUndefined();
  });

  it.each(MEMBER_COLORS)('writes initials on %s at 4.5:1 or more', (color) => {
    expect(contrastRatio(color, initialsColorOn(color))).toBeGreaterThanOrEqual(4.5);
  });

  it('writes white on a colour it cannot read (a CSS variable)', () => {
    expect(initialsColorOn('var(--primary)')).toBe('#ffffff');
  });
});
