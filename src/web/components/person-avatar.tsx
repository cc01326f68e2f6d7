/**
 * A person's initials on their colour (family members' cards, persons shared with the
 * user), in white or black, whichever reads better on that colour.
 */
import { initials } from '../../shared/names';
import { cn } from '../lib/cn';

/** The relative luminance (WCAG 2) of a colour written #rrggbb; undefined for anything else. */
function luminance(color: string): number | undefined {
  const match = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(color);
  if (!match) return undefined;
  const [r, g, b] = match.slice(1).map((hex) => {
    const channel = Number.parseInt(hex, 16) / 255;
    return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

/** The contrast ratio (WCAG 2) of two colours written #rrggbb; undefined for anything else. */
export function contrastRatio(a: string, b: string): number | undefined {
  const [first, second] = [luminance(a), luminance(b)];
  if (first === undefined || second === undefined) return undefined;
  return (Math.max(first, second) + 0.05) / (Math.min(first, second) + 0.05);
}

/** The initials' colour on a background: black where it contrasts more than white. */
export function initialsColorOn(background: string): '#000000' | '#ffffff' {
  const onBlack = contrastRatio(background, '#000000');
  const onWhite = contrastRatio(background, '#ffffff');
  return onBlack !== undefined && onWhite !== undefined && onBlack > onWhite
    ? '#000000'
    : '#ffffff';
}

export function PersonAvatar({ name, color }: { name: string; color: string }) {
  return (
    <span
      className={cn(
        'flex size-12 shrink-0 items-center justify-center rounded-full text-base font-bold shadow-sm',
        initialsColorOn(color) === '#000000' ? 'text-black' : 'text-white',
      )}
      style={{ backgroundColor: color }}
      aria-hidden="true"
    >
      {initials(name, '?')}
    </span>
  );
}
