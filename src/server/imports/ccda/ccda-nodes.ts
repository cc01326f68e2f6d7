/**
 * Walking a C-CDA as fast-xml-parser reads it (the tree @medplum/ccda's `convertXmlToCcda`
 * returns): an element is an object of its attributes (`@_name`), its text (`#text`) and its
 * children, each child one object or a list of them, depending on the element.
 */

/** An element as parsed. */
export type Node = Record<string, unknown>;

export const isNode = (value: unknown): value is Node =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A child that may be one element, a list of them, or absent, as a list of elements. */
export function nodes(value: unknown): Node[] {
  if (Array.isArray(value)) return value.filter(isNode);
  return isNode(value) ? [value] : [];
}

/** The words an element holds, its children's included, spaced as they read. */
export function textContent(value: unknown): string {
  const parts: string[] = [];
  const walk = (item: unknown) => {
    if (typeof item === 'string' || typeof item === 'number') parts.push(String(item));
    else if (Array.isArray(item)) item.forEach(walk);
    else if (isNode(item)) {
      for (const [key, child] of Object.entries(item)) if (!key.startsWith('@_')) walk(child);
    }
  };
  walk(value);
  return parts.join(' ').replace(/\s+/g, ' ').trim();
}
