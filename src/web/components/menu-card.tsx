/**
 * A large card that leads somewhere (/list's kinds of record, /share's ways of sharing): an
 * icon, a title and a line below it. The card is named by its title alone and described by
 * the line, so that 'Visits' or 'Export as PDF' finds it, as a screen reader announces it.
 */
import type { ReactNode } from 'react';

export const MENU_CARD_CLASS =
  'flex min-h-20 w-full items-center gap-4 rounded-2xl border border-border bg-surface p-4 text-start shadow-[0_1px_2px_rgb(15_31_36/0.05)] transition-colors hover:border-primary';

/** The props that name a card by its title and describe it by its line. */
export function menuCardNaming(id: string) {
  return { 'aria-labelledby': `${id}-title`, 'aria-describedby': `${id}-description` };
}

export function MenuCardContent({
  id,
  icon,
  title,
  description,
}: {
  id: string;
  icon: ReactNode;
  title: string;
  description: string;
}) {
  return (
    <>
      {icon}
      <span className="min-w-0 flex-1">
        <span id={`${id}-title`} className="block font-semibold">
          {title}
        </span>
        <span id={`${id}-description`} className="block text-sm text-muted-foreground">
          {description}
        </span>
      </span>
    </>
  );
}
