// @vitest-environment node
/**
 * `cn` joins class names and resolves nothing: no element may be given two classes for one
 * property (`px-4` and `px-2`, `text-primary` and `text-muted-foreground`), since which one
 * wins would then depend on the stylesheet's order, not the code's. Read from the source:
 * every cn() and cva() call, with the classes that can apply together (the strings always
 * given, each `condition && '…'`, one branch of each `? :`, one value of each variant), and
 * every className given to a component that passes it to cn(), against that component's
 * own classes. tailwind-merge (a test-only dependency) says which classes set one property.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { twMerge } from 'tailwind-merge';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { parseSource, resolveModule } from '../../../scripts/first-screens';

const WEB = 'src/web';

function sourceFiles(directory: string): string[] {
  return readdirSync(directory).flatMap((name) => {
    const path = join(directory, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

/** Class lists that can apply together: `always`, and any one choice from each of `choices`. */
interface Classes {
  always: string[];
  choices: string[][][];
  /** A cva() component's variants, by name and value, and the value each takes by default. */
  variants?: Map<string, { values: Map<string, string[]>; default?: string }>;
}

const words = (text: string) => text.split(/\s+/).filter(Boolean);

/** Every string literal under `node`, each as its class list. */
function literals(node: ts.Node): string[][] {
  const found: string[][] = [];
  const visit = (child: ts.Node) => {
    if (ts.isStringLiteralLike(child)) found.push(words(child.text));
    else ts.forEachChild(child, visit);
  };
  visit(node);
  return found;
}

/** The initializer of the `const NAME = …` of a file, for an identifier given to cn. */
function constantValue(file: ts.SourceFile, name: string): ts.Expression | undefined {
  let found: ts.Expression | undefined;
  const visit = (node: ts.Node) => {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.name.text === name) {
      found = node.initializer;
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/** The classes of a `const NAME = '…'` of the same file. */
function constantText(file: ts.SourceFile, name: string): string[] | null {
  const value = constantValue(file, name);
  return value && ts.isStringLiteralLike(value) ? words(value.text) : null;
}

/** What one argument of cn() can add. */
function argumentClasses(file: ts.SourceFile, node: ts.Expression, into: Classes) {
  if (ts.isStringLiteralLike(node)) into.always.push(...words(node.text));
  else if (ts.isParenthesizedExpression(node)) argumentClasses(file, node.expression, into);
  else if (ts.isConditionalExpression(node)) {
    into.choices.push([...literals(node.whenTrue), ...literals(node.whenFalse), []]);
  } else if (
    ts.isBinaryExpression(node) &&
    node.operatorToken.kind === ts.SyntaxKind.AmpersandAmpersandToken
  ) {
    into.choices.push([...literals(node.right), []]);
  } else if (ts.isIdentifier(node)) {
    const constant = constantText(file, node.text);
    if (constant) into.always.push(...constant);
  } else if (ts.isTemplateExpression(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
    into.choices.push([...literals(node), []]);
  } else {
    // A lookup (`sizes[size].box`, `STRIP[status].className`): one of its strings.
    const options = literals(node);
    if (options.length) into.choices.push([...options, []]);
  }
}

/** The classes a cva() call can give: its base, and one value of each variant. */
function cvaClasses(call: ts.CallExpression): Classes {
  const [base, config] = call.arguments;
  const classes: Classes = { always: base ? literals(base).flat() : [], choices: [] };
  const variants = new Map<string, { values: Map<string, string[]>; default?: string }>();
  const properties = (node: ts.Node | undefined) =>
    node && ts.isObjectLiteralExpression(node)
      ? node.properties.filter(ts.isPropertyAssignment)
      : [];
  for (const property of properties(config)) {
    const name = property.name.getText();
    if (name === 'variants') {
      for (const variant of properties(property.initializer)) {
        const values = new Map(
          properties(variant.initializer).map((value) => [
            value.name.getText().replace(/['"]/g, ''),
            literals(value.initializer).flat(),
          ]),
        );
        variants.set(variant.name.getText(), { values });
        classes.choices.push([...values.values()]);
      }
    } else if (name === 'defaultVariants') {
      for (const chosen of properties(property.initializer)) {
        const variant = variants.get(chosen.name.getText());
        if (variant) variant.default = literals(chosen.initializer).flat()[0];
      }
    }
  }
  classes.variants = variants;
  return classes;
}

/** Two class lists that can apply together, and what one of them loses to the other. */
function conflict(a: string[], b: string[]): string[] {
  if (!a.length || !b.length) return [];
  const kept = new Set(words(twMerge([...a, ...b].join(' '))));
  return [...a, ...b].filter((name) => !kept.has(name));
}

function conflictsWithin(classes: Classes): string[] {
  const found: string[] = [];
  const { always, choices } = classes;
  const kept = new Set(words(twMerge(always.join(' '))));
  found.push(...always.filter((name) => !kept.has(name)));
  for (const [index, choice] of choices.entries()) {
    for (const option of choice) {
      found.push(...conflict(always, option));
      for (const other of choices.slice(index + 1)) {
        for (const otherOption of other) found.push(...conflict(option, otherOption));
      }
    }
  }
  return found;
}

interface Call {
  where: string;
  classes: Classes;
  /** Whether the call also takes the component's `className`. */
  takesClassName: boolean;
}

function callsIn(path: string): Call[] {
  const file = parseSource(path);
  const calls: Call[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression)) {
      const where = `${path}:${file.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
      if (node.expression.text === 'cva') {
        calls.push({ where, classes: cvaClasses(node), takesClassName: false });
      } else if (node.expression.text === 'cn') {
        const classes: Classes = { always: [], choices: [] };
        let takesClassName = false;
        for (const argument of node.arguments) {
          if (ts.isIdentifier(argument) && argument.text === 'className') takesClassName = true;
          else if (ts.isCallExpression(argument) && ts.isIdentifier(argument.expression)) {
            // A cva() function's classes: found at its definition.
            const defined = cvaOf(file, argument.expression.text);
            if (defined) {
              classes.always.push(...defined.always);
              classes.choices.push(...defined.choices);
              classes.variants = defined.variants;
            }
          } else argumentClasses(file, argument, classes);
        }
        calls.push({ where, classes, takesClassName });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return calls;
}

/** The classes of a `const NAME = cva(…)` of the same file. */
function cvaOf(file: ts.SourceFile, name: string): Classes | null {
  const value = constantValue(file, name);
  return value &&
    ts.isCallExpression(value) &&
    ts.isIdentifier(value.expression) &&
    value.expression.text === 'cva'
    ? cvaClasses(value)
    : null;
}

/** Each component's classes, for a component (a function) that passes `className` to cn(). */
function componentClasses(path: string, name: string): Classes | null {
  const file = parseSource(path);
  let found: Classes | null = null;
  const visit = (node: ts.Node) => {
    if (ts.isFunctionDeclaration(node) && node.name?.text === name) {
      const start = file.getLineAndCharacterOfPosition(node.getStart()).line + 1;
      const end = file.getLineAndCharacterOfPosition(node.getEnd()).line + 1;
      const inside = callsIn(path).filter((call) => {
        const line = Number(call.where.split(':').pop());
        return call.takesClassName && line >= start && line <= end;
      });
      if (inside[0]) found = inside[0].classes;
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

function useSiteConflicts(path: string): string[] {
  const file = parseSource(path);
  const imported = new Map<string, string>();
  for (const statement of file.statements) {
    if (!ts.isImportDeclaration(statement)) continue;
    const bindings = statement.importClause?.namedBindings;
    const from = resolveModule(path, (statement.moduleSpecifier as ts.StringLiteral).text);
    if (from && bindings && ts.isNamedImports(bindings)) {
      for (const element of bindings.elements) imported.set(element.name.text, from);
    }
  }
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isJsxSelfClosingElement(node) || ts.isJsxOpeningElement(node)) {
      const tag = node.tagName.getText();
      const from = imported.get(tag);
      const own = from ? componentClasses(from, tag) : null;
      for (const attribute of node.attributes.properties) {
        if (
          own &&
          ts.isJsxAttribute(attribute) &&
          attribute.name.getText() === 'className' &&
          attribute.initializer
        ) {
          const given: Classes = { always: [], choices: [] };
          // A variant component gives the variants the element names, else its defaults.
          const chosen: Classes = own.variants
            ? { always: [...own.always], choices: [] }
            : { always: [...own.always], choices: own.choices };
          for (const [name, variant] of own.variants ?? []) {
            const prop = node.attributes.properties.find(
              (p): p is ts.JsxAttribute => ts.isJsxAttribute(p) && p.name.getText() === name,
            );
            const value =
              prop?.initializer && ts.isStringLiteral(prop.initializer)
                ? prop.initializer.text
                : prop
                  ? undefined
                  : variant.default;
            if (value !== undefined) chosen.always.push(...(variant.values.get(value) ?? []));
            else chosen.choices.push([...variant.values.values()]);
          }
          const value = ts.isJsxExpression(attribute.initializer)
            ? attribute.initializer.expression
            : attribute.initializer;
          if (value) argumentClasses(file, value, given);
          const where = `${path}:${file.getLineAndCharacterOfPosition(node.getStart()).line + 1} <${tag}>`;
          const lost = conflictsWithin({
            always: [...chosen.always, ...given.always],
            choices: [...chosen.choices, ...given.choices],
          }).filter((name) => !conflictsWithin(chosen).includes(name));
          if (lost.length) found.push(`${where}: ${[...new Set(lost)].join(' ')}`);
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

describe('class names', () => {
  const files = sourceFiles(WEB);

  it('no cn() or cva() call gives one element two classes for one property', () => {
    const found = files.flatMap((path) =>
      callsIn(path).flatMap(({ where, classes }) => {
        const lost = conflictsWithin(classes);
        return lost.length ? [`${where}: ${[...new Set(lost)].join(' ')}`] : [];
      }),
    );
    expect(found).toEqual([]);
  });

  it('no className given to a component restates a property the component sets', () => {
    expect(files.flatMap(useSiteConflicts)).toEqual([]);
  });
});
