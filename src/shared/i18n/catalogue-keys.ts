/**
 * The keys the product's code asks the catalogue for, found in its source: the first argument
 * of every `t('…')`, `tr('…')` and `key('…')` call written as a literal. A label made in one
 * place and translated where it shows (`t(field.label)`) is marked where it is made, with
 * `key('…')`, or comes from a record definition (listed by `definitionKeys`).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
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

/** Each literal key in the files under `directories`, with the files it is asked for in. */
export function sourceKeys(directories: readonly string[]): Map<string, string[]> {
  const keys = new Map<string, string[]>();
  for (const path of directories.flatMap(sourceFiles)) {
    const text = readFileSync(path, 'utf8');
    const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TSX);
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
    visit(file);
  }
  return keys;
}

/** The `{name}` placeholders of a text. */
export function placeholders(text: string): string[] {
  return [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1] ?? '').sort();
}

/**
 * Every string a record definition gives a screen to show (`t(field.label)`): each type's
 * nouns and menu card, its fields' labels, their options' labels and empty choices, the
 * suggestions a field offers (the common lab tests, and the panels that add several), and
 * its messages (toasts, errors, 'not found').
 */
export function definitionKeys(): Set<string> {
  const keys = new Set<string>();
  const add = (text: string | undefined) => {
    if (text) keys.add(text);
  };
  for (const identity of Object.values(recordCatalogue)) {
    add(identity.noun);
    add(identity.plural);
    if ('menu' in identity) {
      add(identity.menu.title);
      add(identity.menu.description);
    }
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
