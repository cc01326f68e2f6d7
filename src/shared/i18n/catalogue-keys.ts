/**
 * The keys the product's code asks the catalogue for, found in its source: the first argument
 * of every `t('…')`, `tr('…')` and `key('…')` call written as a literal. A label made in one
 * place and translated where it shows (`t(field.label)`) is marked where it is made, with
 * `key('…')`, or comes from a record definition (listed by `definitionKeys`).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { labPanels } from '../labs/lab-tests';
import { recordCatalogue } from '../records/catalogue';
import { recordDefinitions } from '../records/index';

const CALLEES = new Set(['t', 'tr', 'key']);

function sourceFiles(directory: string): string[] {
  return readdirSync(directory).flatMap((name) => {
    const path = join(directory, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) && !/\.(test|spec)\.tsx?$/.test(name) && !name.endsWith('.d.ts')
      ? [path]
      : [];
  });
}

function calleeName(expression: ts.Expression): string | null {
  if (ts.isIdentifier(expression)) return expression.text;
  if (ts.isPropertyAccessExpression(expression)) return expression.name.text;
  return null;
}

function parsed(path: string): ts.SourceFile {
  const text = readFileSync(path, 'utf8');
  const kind = path.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  return ts.createSourceFile(path, text, ts.ScriptTarget.Latest, false, kind);
}

/** Adds each literal key asked for in `paths` to `keys`, with the files it is asked for in. */
function collectKeys(paths: readonly string[], keys: Map<string, string[]>) {
  for (const path of paths) {
    const visit = (node: ts.Node) => {
      if (ts.isCallExpression(node)) {
        const name = calleeName(node.expression);
        const [first] = node.arguments;
        if (
          name &&
          CALLEES.has(name) &&
          first &&
          (ts.isStringLiteral(first) || ts.isNoSubstitutionTemplateLiteral(first))
        ) {
          keys.set(first.text, [...(keys.get(first.text) ?? []), path]);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(parsed(path));
  }
  return keys;
}

/** Each literal key in the files under `directories`, with the files it is asked for in. */
export function sourceKeys(directories: readonly string[]): Map<string, string[]> {
  return collectKeys(directories.flatMap(sourceFiles), new Map());
}

/**
 * The words of the files a first screen loads (scripts/first-screens.ts): the keys they ask
 * for, the record types' names when the record catalogue is among them, and every record
 * definition's words when a definition is. The rest of a language's words load at the first
 * interaction (src/web/lib/i18n.ts).
 */
export function firstScreenKeys(files: readonly string[]): Set<string> {
  const loaded = new Set(files);
  const keys = new Set(collectKeys(files, new Map()).keys());
  const records = resolve(dirname(fileURLToPath(import.meta.url)), '../records');
  const words = loaded.has(join(records, 'definition.ts'))
    ? definitionKeys()
    : loaded.has(join(records, 'catalogue.ts'))
      ? identityKeys()
      : [];
  for (const text of words) keys.add(text);
  return keys;
}

/** The `{name}` placeholders of a text. */
export function placeholders(text: string): string[] {
  return [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1] ?? '').sort();
}

/** The record types' names (records/catalogue.ts): their nouns and their menus' titles. */
function identityKeys(): Set<string> {
  const keys = new Set<string>();
  for (const identity of Object.values(recordCatalogue)) {
    keys.add(identity.noun);
    keys.add(identity.plural);
    if ('menu' in identity) keys.add(identity.menu.title);
  }
  return keys;
}

/**
 * Every string a record definition gives a screen to show (`t(field.label)`): each type's
 * nouns and menu card, its fields' labels, their options' labels and empty choices, the
 * suggestions a field offers (the common lab tests, and the panels that add several), and
 * its messages (toasts, errors, 'not found').
 */
export function definitionKeys(): Set<string> {
  const keys = identityKeys();
  const add = (text: string | undefined) => {
    if (text) keys.add(text);
  };
  // The menu cards' descriptions, on Health Records (never a first screen).
  for (const identity of Object.values(recordCatalogue)) {
    if ('menu' in identity) add(identity.menu.description);
  }
  for (const definition of recordDefinitions) {
    add(definition.noun);
    add(definition.plural);
    add(definition.menu?.title);
    add(definition.menu?.description);
    for (const field of Object.values(definition.fields)) {
      add(field.label);
      add(field.emptyLabel);
      for (const option of field.options ?? []) add(option.label);
      for (const option of field.suggest?.options ?? []) add(option.value);
    }
    for (const message of Object.values(definition.messages)) {
      if (typeof message === 'string') add(message);
      else {
        add(message.title);
        add(message.description);
      }
    }
  }
  for (const panel of labPanels) add(panel.name);
  return keys;
}
