/** Tabs (Radix): role tablist/tab/tabpanel, arrow keys between tabs. */
import * as TabsPrimitive from '@radix-ui/react-tabs';
import type { ComponentProps } from 'react';
import { cn } from '../../lib/cn';

export const Tabs = TabsPrimitive.Root;
export const TabsContent = TabsPrimitive.Content;

export function TabsList({ className, ...props }: ComponentProps<typeof TabsPrimitive.List>) {
  return (
    <TabsPrimitive.List
      className={cn(
        'grid auto-cols-fr grid-flow-col gap-1 rounded-2xl bg-surface-muted p-1',
        className,
      )}
      {...props}
    />
  );
}

/**
 * A tab. Radix moves focus in a way Chromium marks as keyboard focus even after a click, so
 * the focus ring showed on every tab clicked, like a second selected style; a tab focused by
 * the pointer shows none (until it loses focus), one reached by the keyboard still does.
 */
export function TabsTrigger({
  className,
  onPointerDown,
  onBlur,
  ...props
}: ComponentProps<typeof TabsPrimitive.Trigger>) {
  return (
    <TabsPrimitive.Trigger
      className={cn(
        'min-h-10 min-w-0 rounded-xl px-3 py-1 text-sm leading-tight font-semibold wrap-anywhere text-muted-foreground transition-colors data-pointer-focus:outline-none data-[state=active]:bg-surface data-[state=active]:text-foreground data-[state=active]:shadow-sm',
        className,
      )}
      onPointerDown={(event) => {
        event.currentTarget.dataset.pointerFocus = '';
        onPointerDown?.(event);
      }}
      onBlur={(event) => {
        delete event.currentTarget.dataset.pointerFocus;
        onBlur?.(event);
      }}
      {...props}
    />
  );
}
