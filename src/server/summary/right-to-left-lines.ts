/**
 * Right-to-left text broken into lines and put in visual order for the PDF library, which
 * has no bidirectional layout of its own (decision 0066).
 *
 * pdfkit hands fontkit each run of text it is given and draws the glyphs in the order fontkit
 * returns them; fontkit reverses a run whose first letter is of a right-to-left script, and
 * leaves any other as it is. A line that mixes Arabic with Latin words or numbers therefore
 * has to be cut into runs that are each of one direction, put side by side in the order they
 * are seen from left to right. Which words share a line has to be known before that order can
 * be found, so the lines are broken here too, measured with the font the page is set in.
 *
 * The order is the Unicode Bidirectional Algorithm's (UAX #9, rules P2–P3, W1–W7, N0–N2,
 * I1–I2, L1–L2, for text without explicit embeddings or isolates, as record text is): the
 * same a browser gives the text on the app's screens, so a reading looks the same in the
 * form and on the page. Brackets on a right-to-left level are mirrored (L4), as fontkit does
 * not mirror them.
 */

/** The bidirectional classes of UAX #9 this needs (the rest count as other neutrals). */
type BidiClass = 'L' | 'R' | 'AL' | 'EN' | 'AN' | 'ES' | 'ET' | 'CS' | 'NSM' | 'WS' | 'ON';

const EUROPEAN_DIGIT =
  /[0-9\u00B2\u00B3\u00B9\u06F0-\u06F9\u2070\u2074-\u2079\u2080-\u2089\uFF10-\uFF19]/u;
const ARABIC_DIGIT = /[\u0600-\u0605\u0660-\u0669\u066B\u066C\u06DD\u0890\u0891\u08E2]/u;
const SEPARATOR = /[+\-\u207A\u207B\u208A\u208B\u2212\uFB29\uFE62\uFE63\uFF0B\uFF0D]/u;
const TERMINATOR =
  /[#$%\u00A2-\u00A5\u00B0\u00B1\u0609\u060A\u066A\u09F2\u09F3\u2030-\u2034\u20A0-\u20CF\u212E\u2213\uFE5F\uFE69\uFE6A\uFF03-\uFF05\uFFE0\uFFE1\uFFE5\uFFE6]/u;
const COMMON_SEPARATOR =
  /[,./:\u00A0\u060C\u202F\u2044\uFE50\uFE52\uFE55\uFF0C\uFF0E\uFF0F\uFF1A]/u;
const WHITESPACE = /[\t\f\u0020\u1680\u2000-\u200A\u2028\u205F\u3000]/u;
const NONSPACING_MARK = /[\p{Mn}\p{Me}]/u;
const ARABIC_LETTER =
  /[\p{Script=Arabic}\p{Script=Syriac}\p{Script=Thaana}\u061B\u061C\u061D-\u061F\u06D4]/u;
const RIGHT_TO_LEFT_LETTER =
  /[\p{Script=Hebrew}\p{Script=Nko}\p{Script=Samaritan}\p{Script=Mandaic}\u200F]/u;
const LEFT_TO_RIGHT = /[\p{L}\p{Mc}\p{Nd}\u200E]/u;

function bidiClass(character: string): BidiClass {
  if (EUROPEAN_DIGIT.test(character)) return 'EN';
  if (ARABIC_DIGIT.test(character)) return 'AN';
  if (SEPARATOR.test(character)) return 'ES';
  if (TERMINATOR.test(character) || /\p{Sc}/u.test(character)) return 'ET';
  if (COMMON_SEPARATOR.test(character)) return 'CS';
  if (WHITESPACE.test(character)) return 'WS';
  if (NONSPACING_MARK.test(character)) return 'NSM';
  if (ARABIC_LETTER.test(character))
    return /\p{L}|[\u061B-\u061F\u06D4]/u.test(character) ? 'AL' : 'ON';
  if (RIGHT_TO_LEFT_LETTER.test(character)) return /\p{L}|\u200F/u.test(character) ? 'R' : 'ON';
  if (LEFT_TO_RIGHT.test(character)) return 'L';
  return 'ON';
}

/** Whether a text has anything that is written right to left. */
export function hasRightToLeft(text: string): boolean {
  for (const character of text) {
    const type = bidiClass(character);
    if (type === 'R' || type === 'AL' || type === 'AN') return true;
  }
  return false;
}

const OPENING: Record<string, string> = { '(': ')', '[': ']', '{': '}' };
const CLOSING = new Set(Object.values(OPENING));

/** A resolved class's direction for brackets and neutrals: numbers count as right to left. */
const strongDirection = (type: BidiClass): 'L' | 'R' | null =>
  type === 'L' ? 'L' : type === 'R' || type === 'EN' || type === 'AN' ? 'R' : null;

/**
 * N0: a pair of brackets takes one direction, so that 'Tdap (adult)' in Arabic keeps its
 * closing bracket: the paragraph's when a letter inside is of it, else the other one when a
 * letter inside and the text before the pair are of that one. Pairs found as in BD16.
 */
function resolveBrackets(
  characters: readonly string[],
  original: readonly BidiClass[],
  types: BidiClass[],
  embedding: 'L' | 'R',
): void {
  const pairs: [number, number][] = [];
  const stack: { closing: string; position: number }[] = [];
  for (let i = 0; i < characters.length; i++) {
    if (types[i] !== 'ON') continue;
    const character = characters[i]!;
    if (OPENING[character]) {
      if (stack.length === 63) break;
      stack.push({ closing: OPENING[character], position: i });
    } else if (CLOSING.has(character)) {
      const match = stack.findLastIndex((opener) => opener.closing === character);
      if (match >= 0) {
        pairs.push([stack[match]!.position, i]);
        stack.length = match;
      }
    }
  }
  pairs.sort((a, b) => a[0] - b[0]);
  for (const [open, close] of pairs) {
    let inside: 'L' | 'R' | null = null;
    for (let i = open + 1; i < close && inside !== embedding; i++) {
      inside = strongDirection(types[i]!) ?? inside;
    }
    if (inside === null) continue;
    let resolved = embedding;
    if (inside !== embedding) {
      let before: 'L' | 'R' = embedding;
      for (let i = open - 1; i >= 0; i--) {
        const direction = strongDirection(types[i]!);
        if (direction) {
          before = direction;
          break;
        }
      }
      if (before === inside) resolved = inside;
    }
    for (const bracket of [open, close]) {
      types[bracket] = resolved;
      // Marks on a bracket go with it.
      for (let i = bracket + 1; i < types.length && original[i] === 'NSM'; i++) types[i] = resolved;
    }
  }
}

/**
 * Whether a paragraph reads left to right throughout, so that it can be drawn as it is: it
 * has nothing written right to left, and its direction is left to right.
 */
export function isLeftToRight(paragraph: string, direction: 'rtl' | 'auto'): boolean {
  if (direction === 'rtl' || hasRightToLeft(paragraph)) return paragraph.length === 0;
  return bidiLevels(Array.from(paragraph), direction).paragraphLevel === 0;
}

/**
 * The embedding level of each character of a paragraph (one string per code point): 0 or 2
 * left to right, 1 right to left. `direction` 'auto' takes the paragraph's from its first
 * strong letter (P2–P3), as a browser does for `dir="auto"`, and right to left without one.
 */
export function bidiLevels(
  characters: readonly string[],
  direction: 'rtl' | 'auto',
): { levels: number[]; paragraphLevel: number } {
  const original = characters.map(bidiClass);
  let paragraphLevel = 1;
  if (direction === 'auto') {
    const first = original.find((type) => type === 'L' || type === 'R' || type === 'AL');
    if (first === 'L') paragraphLevel = 0;
  }
  const start: 'L' | 'R' = paragraphLevel ? 'R' : 'L';
  const types = [...original];
  const n = types.length;
  // W1: a mark takes the class of what it is set on.
  for (let i = 0; i < n; i++) if (types[i] === 'NSM') types[i] = i ? types[i - 1]! : start;
  // W2, W3: digits after Arabic letters are Arabic numbers; Arabic letters are right to left.
  let strong: BidiClass = start;
  for (let i = 0; i < n; i++) {
    const type = types[i]!;
    if (type === 'L' || type === 'R' || type === 'AL') strong = type;
    else if (type === 'EN' && strong === 'AL') types[i] = 'AN';
  }
  for (let i = 0; i < n; i++) if (types[i] === 'AL') types[i] = 'R';
  // W4: one separator between two numbers of a kind joins them ('120/80', '3.5', '1,000').
  for (let i = 1; i < n - 1; i++) {
    const before = types[i - 1];
    const after = types[i + 1];
    if (types[i] === 'ES' && before === 'EN' && after === 'EN') types[i] = 'EN';
    else if (types[i] === 'CS' && before === after && (before === 'EN' || before === 'AN')) {
      types[i] = before!;
    }
  }
  // W5: terminators next to a European number belong to it ('5%', '$20', '38°').
  for (let i = 0; i < n; i++) {
    if (types[i] !== 'ET') continue;
    let end = i;
    while (end < n && types[end] === 'ET') end++;
    if ((i > 0 && types[i - 1] === 'EN') || (end < n && types[end] === 'EN')) {
      for (let j = i; j < end; j++) types[j] = 'EN';
    }
    i = end - 1;
  }
  // W6: other separators and terminators are neutral.
  for (let i = 0; i < n; i++) {
    const type = types[i];
    if (type === 'ES' || type === 'ET' || type === 'CS') types[i] = 'ON';
  }
  // W7: European numbers after left-to-right text are left to right.
  strong = start;
  for (let i = 0; i < n; i++) {
    const type = types[i]!;
    if (type === 'L' || type === 'R') strong = type;
    else if (type === 'EN' && strong === 'L') types[i] = 'L';
  }
  resolveBrackets(characters, original, types, start);
  // N1, N2: neutrals between two of one direction take it, others the paragraph's.
  const directionOf = (type: BidiClass | undefined, edge: BidiClass): BidiClass | null => {
    if (type === undefined) return edge;
    if (type === 'L') return 'L';
    if (type === 'R' || type === 'EN' || type === 'AN') return 'R';
    return null;
  };
  for (let i = 0; i < n; i++) {
    if (directionOf(types[i], start) !== null) continue;
    let end = i;
    while (end < n && directionOf(types[end], start) === null) end++;
    const before = directionOf(i ? types[i - 1] : undefined, start);
    const after = directionOf(end < n ? types[end] : undefined, start);
    const resolved = before === after ? before! : start;
    for (let j = i; j < end; j++) types[j] = resolved;
    i = end - 1;
  }
  // I1, I2.
  const levels = types.map((type): number => {
    if (paragraphLevel === 0) return type === 'R' ? 1 : type === 'AN' || type === 'EN' ? 2 : 0;
    return type === 'L' || type === 'EN' || type === 'AN' ? 2 : 1;
  });
  // L1 for the paragraph's end (a line's end is cut at its spaces, below).
  for (let i = n - 1; i >= 0 && original[i] === 'WS'; i--) levels[i] = paragraphLevel;
  return { levels, paragraphLevel };
}

/** The positions of a line's characters in the order they are seen from left to right (L2). */
function visualOrder(levels: readonly number[]): number[] {
  const order = levels.map((_, i) => i);
  const highest = Math.max(0, ...levels);
  const lowestOdd = levels.reduce((low, level) => (level % 2 ? Math.min(low, level) : low), 99);
  for (let level = highest; level >= lowestOdd && level > 0; level--) {
    for (let i = 0; i < order.length; i++) {
      if (levels[order[i]!]! < level) continue;
      let end = i;
      while (end < order.length && levels[order[end]!]! >= level) end++;
      order.splice(i, end - i, ...order.slice(i, end).reverse());
      i = end - 1;
    }
  }
  return order;
}

const MIRRORED: Record<string, string> = {
  '(': ')',
  ')': '(',
  '<': '>',
  '>': '<',
  '[': ']',
  ']': '[',
  '{': '}',
  '}': '{',
  '«': '»',
  '»': '«',
  '‹': '›',
  '›': '‹',
  '≤': '≥',
  '≥': '≤',
  '⁅': '⁆',
  '⁆': '⁅',
  '⁽': '⁾',
  '⁾': '⁽',
  '₍': '₎',
  '₎': '₍',
};

/** Whether fontkit lays a run out right to left: by the first letter of a script of its own. */
function laidOutRightToLeft(text: string): boolean {
  const letter = /[^\p{Script=Common}\p{Script=Inherited}\p{Script=Unknown}]/u.exec(text);
  return (
    letter !== null &&
    /[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}\p{Script=Samaritan}\p{Script=Mandaic}]/u.test(
      letter[0],
    )
  );
}

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** A text's characters in reverse, each with its marks still after it. */
const reversed = (text: string) =>
  Array.from(graphemes.segment(text), (part) => part.segment)
    .reverse()
    .join('');

/**
 * A run as it must be handed to the PDF library for its glyphs to be seen in `visual` order
 * (left to right): reversed when fontkit will reverse it again.
 */
function drawnRun(logical: string, rightToLeft: boolean): string {
  return laidOutRightToLeft(logical) === rightToLeft ? logical : reversed(logical);
}

/**
 * A line as runs to draw side by side from left to right, each to be laid out by the PDF
 * library as one piece. Spaces at a run's edge are runs of their own, so that a run never
 * starts or ends with one (pdfmake trims a line's first and last piece of their spaces).
 */
function visualRuns(characters: readonly string[], levels: readonly number[]): string[] {
  const order = visualOrder(levels);
  const runs: string[] = [];
  for (let i = 0; i < order.length;) {
    const level = levels[order[i]!]!;
    let end = i;
    while (end < order.length && levels[order[end]!] === level) end++;
    const rightToLeft = level % 2 === 1;
    // In logical order, mirrored on a right-to-left level.
    const positions = order.slice(i, end).sort((a, b) => a - b);
    const logical = positions
      .map((p) => (rightToLeft ? (MIRRORED[characters[p]!] ?? characters[p]!) : characters[p]!))
      .join('');
    const [, before, core, after] = /^(\s*)(.*?)(\s*)$/su.exec(logical)!;
    // Left to right on the page: a right-to-left run's logical end is on its left.
    const [left, right] = rightToLeft ? [after!, before!] : [before!, after!];
    if (left) runs.push(left);
    if (core) runs.push(drawnRun(core, rightToLeft));
    if (right) runs.push(right);
    i = end;
  }
  return runs;
}

export interface LineBreaking {
  /** The width of a text as drawn, in the same unit as `width`. */
  measure: (text: string) => number;
  width: number;
  direction: 'rtl' | 'auto';
}

/**
 * A paragraph (no line breaks) broken into lines no wider than `width` at its spaces, each
 * line given as the runs to draw from left to right. A word wider than a line is cut between
 * characters. The spaces a line is broken at are dropped, as a browser drops them.
 */
export function paragraphLines(
  text: string,
  { measure, width, direction }: LineBreaking,
): string[][] {
  const characters = Array.from(text);
  const { levels } = bidiLevels(characters, direction);
  // Words and the spaces after them, as positions in `characters`.
  const pieces: { start: number; end: number; space: boolean }[] = [];
  for (let i = 0; i < characters.length;) {
    const space = characters[i] === ' ';
    let end = i;
    while (end < characters.length && (characters[end] === ' ') === space) end++;
    pieces.push({ start: i, end, space });
    i = end;
  }
  // A line's width as drawn: its runs, each measured whole. Not the sum of its words': a
  // word cut into runs of two directions ('Dr.' before Arabic) loses its kerning.
  const runsOf = (start: number, end: number) =>
    visualRuns(characters.slice(start, end), levels.slice(start, end));
  const fits = (start: number, end: number) =>
    runsOf(start, end).reduce((sum, run) => sum + measure(run), 0) <= width;
  const lines: [number, number][] = [];
  let lineStart = -1;
  let lineEnd = -1;
  const close = () => {
    if (lineStart >= 0) lines.push([lineStart, lineEnd]);
    lineStart = -1;
  };
  for (const piece of pieces) {
    if (piece.space) continue;
    if (lineStart >= 0 && fits(lineStart, piece.end)) {
      lineEnd = piece.end;
      continue;
    }
    close();
    // A word too wide for any line: as many of its characters as fit on each.
    let partStart = piece.start;
    if (!fits(piece.start, piece.end)) {
      let position = piece.start;
      const word = characters.slice(piece.start, piece.end).join('');
      for (const { segment } of graphemes.segment(word)) {
        const length = Array.from(segment).length;
        if (position > partStart && !fits(partStart, position + length)) {
          lines.push([partStart, position]);
          partStart = position;
        }
        position += length;
      }
    }
    lineStart = partStart;
    lineEnd = piece.end;
  }
  close();
  if (lines.length === 0) return [[]];
  return lines.map(([start, end]) => runsOf(start, end));
}
