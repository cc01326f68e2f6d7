/**
 * A JSON file's top-level object read as a stream (stream-json's tokenizer, a 64 kB piece
 * at a time): each element of its `entry` list is handed on as soon as it is whole, and its
 * other elements are gathered. A FHIR Bundle of 32 MB is then never one tree in memory, only
 * the entry being read (issue 57; decision 0075). Anything but an object with at most one
 * `entry` list is answered as `irregular` before it is read further: the caller reads such a
 * file whole, as JSON.parse would, and refuses it with the same words.
 */
import { createReadStream } from 'node:fs';
import Assembler from 'stream-json/assembler.js';
import { jsonParser, type Token } from 'stream-json/parser.js';
import { getManyValues, isMany, none } from 'stream-chain/defs.js';

/** How much of the file is read at once. */
const PIECE_BYTES = 64 * 1024;

export type TopLevel =
  | {
      kind: 'object';
      /** The object's elements other than `entry`, as JSON.parse would give them. */
      elements: Record<string, unknown>;
      /** Whether the object has an `entry` list. */
      hasEntries: boolean;
    }
  | { kind: 'irregular' };

/** Ends the reading of a file that is not an object with one entry list. */
class Irregular extends Error {}

/**
 * Reads the file at `path`, calling `visit` with each element of its top-level `entry` list
 * and its place in it; `afterPiece` is awaited after each piece of the file (a reader hands on
 * what it has read there). Throws when the file is not JSON, as JSON.parse does.
 */
export async function eachEntry(
  path: string,
  visit: (entry: unknown, position: number) => void,
  afterPiece?: () => Promise<void>,
): Promise<TopLevel> {
  // Given `none`, the tokenizer ends: what is left of the text must close every value.
  const tokenizer = jsonParser({ streamValues: false }) as (text: string | typeof none) => unknown;
  const assembler = new Assembler();
  const elements = new Map<string, unknown>();
  /** Containers open outside the one being assembled: 1 in the object, 2 in its entry list. */
  let depth = 0;
  let ended = false;
  let key = '';
  let hasEntries = false;
  /** Whose value is being assembled: the entry list's (an entry), or an element's key. */
  let assembling: { entry: true } | { key: string } | undefined;
  let position = 0;

  const finishValue = () => {
    if (!assembler.done || !assembling) return;
    if ('entry' in assembling) visit(assembler.current, position++);
    else elements.set(assembling.key, assembler.current);
    assembling = undefined;
  };
  const startValue = (token: Token, of: { entry: true } | { key: string }) => {
    assembling = of;
    assembler.consume(token);
    finishValue();
  };
  const take = (token: Token) => {
    if (assembling) {
      assembler.consume(token);
      finishValue();
    } else if (depth === 0) {
      if (ended || token.name !== 'startObject') throw new Irregular();
      depth = 1;
    } else if (depth === 2) {
      if (token.name === 'endArray') depth = 1;
      else startValue(token, { entry: true });
    } else if (token.name === 'keyValue') {
      key = token.value;
    } else if (token.name === 'endObject') {
      depth = 0;
      ended = true;
    } else if (key === 'entry') {
      if (hasEntries || token.name !== 'startArray') throw new Irregular();
      hasEntries = true;
      depth = 2;
    } else startValue(token, { key });
  };
  const takeAll = (tokens: unknown) => {
    if (isMany(tokens)) for (const token of getManyValues(tokens) as Token[]) take(token);
    else if (tokens !== none && tokens !== undefined) take(tokens as Token);
  };

  try {
    const file = createReadStream(path, { encoding: 'utf8', highWaterMark: PIECE_BYTES });
    for await (const piece of file) {
      takeAll(tokenizer(piece as string));
      await afterPiece?.();
    }
    takeAll(tokenizer(none));
  } catch (error) {
    if (error instanceof Irregular) return { kind: 'irregular' };
    throw error;
  }
  if (!ended) throw new SyntaxError('The JSON ends before its object does');
  return { kind: 'object', elements: Object.fromEntries(elements), hasEntries };
}
