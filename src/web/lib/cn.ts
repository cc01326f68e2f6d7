import { clsx, type ClassValue } from 'clsx';

/**
 * Joins class names. It resolves nothing: an element is never given two classes for one
 * property (a component's variant or prop says what differs, its `className` adds only what
 * it does not set), which cn.test.ts holds every call and every component's use to.
 */
export function cn(...inputs: ClassValue[]): string {
  return clsx(inputs);
}
