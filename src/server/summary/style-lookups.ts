/**
 * pdfmake's style lookups, answered without making garbage. pdfmake looks up some twenty
 * style properties for every text it measures (its font, size, colour, links, …), each
 * through `StyleContextStack.getStyleProperty`, which pushes the text's own styles onto the
 * stack with a new callback, an array and a new inner function for each property, and pops
 * them again. In a busy summary that is a third of everything a rendering allocates (127 of
 * 403 MB for the benchmark's busiest person), all of it work for the collector, on a thread
 * that shares the server's small young generation (`--max-semi-space-size=4`). Here the same
 * two functions read the same places in the same order and allocate nothing, unless a named
 * style extends another (then a set of the styles seen, as pdfmake keeps, against a style
 * that extends itself). The answers are pdfmake's own (style-lookups.test.ts compares them,
 * and a summary's bytes). Why this reaches into pdfmake: docs/decisions/0008-summary-pdf-fonts.md.
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** A named style of the document (pdfmake 0.3: js/StyleContextStack.js). */
type Style = Record<string, unknown> & { extends?: string | string[] };

/** What is on the stack: a named style's name, or a node whose own properties override. */
type StackEntry = string | Record<string, unknown>;

interface StyleContextStack {
  styleDictionary: Record<string, Style | undefined>;
  defaultStyle?: Record<string, unknown>;
  styleOverrides?: StackEntry[];
  getProperty(property: string): unknown;
}

interface StyleContextStackClass {
  prototype: StyleContextStack;
  getStyleProperty(
    item: StackEntry,
    stack: StyleContextStack | undefined | null,
    property: string,
    defaultValue: unknown,
  ): unknown;
}

/** pdfmake's `isValue`. */
const isValue = (value: unknown) => value !== undefined && value !== null;
/** pdfmake's `isString`. */
const isString = (value: unknown): value is string =>
  typeof value === 'string' || value instanceof String;

/** A named style's value of `property`, or of the styles it extends, the last first. */
function namedStyleValue(
  dictionary: StyleContextStack['styleDictionary'],
  name: string,
  property: string,
  visited?: Set<string>,
): unknown {
  if (visited) {
    if (visited.has(name)) return undefined;
    visited.add(name);
  }
  const style = dictionary[name];
  if (!style) return undefined;
  if (isValue(style[property])) return style[property];
  if (!style.extends) return undefined;
  const seen = visited ?? new Set([name]);
  const parents = Array.isArray(style.extends) ? style.extends : [style.extends];
  for (let i = parents.length - 1; i >= 0; i--) {
    const value = namedStyleValue(dictionary, parents[i]!, property, seen);
    if (isValue(value)) return value;
  }
  return undefined;
}

/** An entry's value of `property`, as pdfmake reads an entry of its stack. */
function entryValue(stack: StyleContextStack, entry: StackEntry, property: string): unknown {
  return isString(entry)
    ? namedStyleValue(stack.styleDictionary, String(entry), property)
    : entry[property];
}

/** `StyleContextStack.prototype.getProperty`: the stack from its top, then the default style. */
function getProperty(this: StyleContextStack, property: string): unknown {
  const overrides = this.styleOverrides;
  if (overrides) {
    for (let i = overrides.length - 1; i >= 0; i--) {
      const value = entryValue(this, overrides[i]!, property);
      if (isValue(value)) return value;
    }
  }
  return this.defaultStyle && this.defaultStyle[property];
}

/**
 * `StyleContextStack.getStyleProperty`: the item's own value, else what the stack would say
 * with the item pushed on it (its named styles, the last first, then the stack).
 */
function getStyleProperty(
  item: StackEntry,
  stack: StyleContextStack | undefined | null,
  property: string,
  defaultValue: unknown,
): unknown {
  const own = (item as Record<string, unknown>)[property];
  if (isValue(own)) return own;
  if (!stack) return defaultValue;
  // pdfmake pushes nothing for a text given as a string, or for a section.
  if (!isString(item) && typeof item.section === 'undefined' && item.style) {
    const names = item.style as StackEntry | StackEntry[];
    if (Array.isArray(names)) {
      for (let i = names.length - 1; i >= 0; i--) {
        const value = entryValue(stack, names[i]!, property);
        if (isValue(value)) return value;
      }
    } else {
      const value = entryValue(stack, names, property);
      if (isValue(value)) return value;
    }
  }
  const value = stack.getProperty(property);
  return isValue(value) ? value : defaultValue;
}

let installed = false;

/** pdfmake's own two functions, before they are replaced (for tests). */
export let pdfmakeStyleLookups:
  | {
      getProperty: StyleContextStack['getProperty'];
      getStyleProperty: StyleContextStackClass['getStyleProperty'];
    }
  | undefined;

/**
 * Makes pdfmake look styles up without allocating. Returns whether it could: it checks the
 * shape of pdfmake it relies on, and leaves pdfmake as it is if that has changed.
 */
export function lookUpStylesWithoutGarbage(): boolean {
  if (installed) return true;
  let stackClass: StyleContextStackClass | undefined;
  try {
    const module = createRequire(require.resolve('pdfmake'))('./StyleContextStack') as {
      default?: StyleContextStackClass;
    };
    stackClass = module.default;
  } catch {
    return false;
  }
  if (
    typeof stackClass?.getStyleProperty !== 'function' ||
    typeof stackClass.prototype?.getProperty !== 'function'
  ) {
    return false;
  }
  pdfmakeStyleLookups = {
    getProperty: stackClass.prototype.getProperty,
    getStyleProperty: stackClass.getStyleProperty,
  };
  stackClass.prototype.getProperty = getProperty;
  stackClass.getStyleProperty = getStyleProperty;
  installed = true;
  return true;
}
