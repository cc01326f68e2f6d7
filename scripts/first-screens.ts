/**
 * The web app's first screens as the build sees them (src/web/first-screen.ts names them:
 * each path, and the screen modules it starts loading): the files a page loads before one of
 * them shows, read from the source by following static imports, not types, not `import()`.
 * The build uses them twice: a first screen's files go into few chunks rather than the
 * dozens automatic splitting cuts them into (each a request, and each compressed alone), and
 * only their words of a language load with them (first-screen-words-plugin.ts).
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const parsed = new Map<string, ts.SourceFile>();

/** A source file's syntax tree (TypeScript's or TSX's, by its ending), read once. */
export function parseSource(file: string): ts.SourceFile {
  const known = parsed.get(file);
  if (known) return known;
  const source = ts.createSourceFile(
    file,
    readFileSync(file, 'utf8'),
    ts.ScriptTarget.Latest,
    true,
    file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  parsed.set(file, source);
  return source;
}

/** The source file a relative module specifier names, or null for a package's. */
export function resolveModule(from: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null;
  const base = path.resolve(path.dirname(from), specifier);
  const found = ['', '.ts', '.tsx', '/index.ts', '/index.tsx']
    .map((ending) => base + ending)
    .find((candidate) => existsSync(candidate) && statSync(candidate).isFile());
  return found ?? null;
}

/** The files `node`'s `import()` calls name. */
function dynamicImports(file: string, node: ts.Node): string[] {
  const found: string[] = [];
  const visit = (child: ts.Node) => {
    if (
      ts.isCallExpression(child) &&
      child.expression.kind === ts.SyntaxKind.ImportKeyword &&
      child.arguments[0] &&
      ts.isStringLiteralLike(child.arguments[0])
    ) {
      const target = resolveModule(file, child.arguments[0].text);
      if (target) found.push(target);
    }
    ts.forEachChild(child, visit);
  };
  visit(node);
  return found;
}

/** The files a file imports statically (its code, not its types). */
function staticImports(file: string): string[] {
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    const specifier =
      (ts.isImportDeclaration(node) && !node.importClause?.isTypeOnly) ||
      (ts.isExportDeclaration(node) && !node.isTypeOnly)
        ? node.moduleSpecifier
        : undefined;
    if (specifier && ts.isStringLiteralLike(specifier)) {
      const target = resolveModule(file, specifier.text);
      if (target) found.push(target);
    }
    ts.forEachChild(node, visit);
  };
  visit(parseSource(file));
  return found;
}

/**
 * Each lucide-react icon's file, by every name the package exports it under (`ShieldAlert` is
 * shield-exclamation-point), read from the package's own list of exports.
 */
let iconFiles: Map<string, string> | null = null;
function iconFileOf(name: string): string | undefined {
  if (!iconFiles) {
    iconFiles = new Map();
    const list = readFileSync(
      path.resolve('node_modules/lucide-react/dist/esm/lucide-react.mjs'),
      'utf8',
    );
    for (const [, names, file] of list.matchAll(
      /export \{([^}]+)\} from '\.\/icons\/([\w-]+)\.mjs'/g,
    )) {
      for (const [, exported] of (names ?? '').matchAll(/default as (\w+)/g)) {
        iconFiles.set(exported ?? '', file ?? '');
      }
    }
  }
  return iconFiles.get(name);
}

/** The icons a file takes from lucide-react, by the package's file of each. */
function iconsOf(file: string): string[] {
  const found: string[] = [];
  for (const statement of parseSource(file).statements) {
    if (
      !ts.isImportDeclaration(statement) ||
      statement.importClause?.isTypeOnly ||
      !ts.isStringLiteral(statement.moduleSpecifier) ||
      statement.moduleSpecifier.text !== 'lucide-react'
    ) {
      continue;
    }
    const named = statement.importClause?.namedBindings;
    if (!named || !ts.isNamedImports(named)) continue;
    for (const element of named.elements) {
      const icon = element.isTypeOnly
        ? undefined
        : iconFileOf((element.propertyName ?? element.name).text);
      if (icon) found.push(icon);
    }
  }
  return found;
}

/**
 * `entries` and every file they import statically, at any depth; with `later`, also every
 * file they load later by `import()`.
 */
export function staticClosure(entries: readonly string[], later = false): Set<string> {
  const pending = [...entries];
  const files = new Set<string>();
  for (let file = pending.pop(); file; file = pending.pop()) {
    if (files.has(file)) continue;
    files.add(file);
    pending.push(...staticImports(file), ...(later ? dynamicImports(file, parseSource(file)) : []));
  }
  return files;
}

export interface FirstScreens {
  /** main.tsx and all it imports: the app's entry. */
  entry: Set<string>;
  /**
   * Each first screen: the path it opens at, its name (its screen module's), and the files it
   * loads beyond the entry.
   */
  screens: { path: string; name: string; files: Set<string> }[];
}

/** The first screens of the web app in `webRoot` (src/web). */
export function firstScreens(webRoot: string): FirstScreens {
  // Read afresh each time: the dev server asks again as the source changes.
  parsed.clear();
  const root = path.resolve(webRoot);
  const entry = staticClosure([path.join(root, 'main.tsx')]);
  const listFile = path.join(root, 'first-screen.ts');
  const screens: FirstScreens['screens'] = [];
  const visit = (node: ts.Node) => {
    if (ts.isPropertyAssignment(node) && ts.isStringLiteralLike(node.name)) {
      const modules = dynamicImports(listFile, node.initializer);
      const last = modules.at(-1);
      if (last) {
        const files = [...staticClosure(modules)].filter((file) => !entry.has(file));
        screens.push({
          path: node.name.text,
          name: path.basename(last).replace(/\.tsx?$/, ''),
          files: new Set(files),
        });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(parseSource(listFile));
  return { entry, screens };
}

/** Every file a page loads before one of the first screens shows. */
export function firstScreenFiles(webRoot: string): string[] {
  const { entry, screens } = firstScreens(webRoot);
  return [...new Set([...entry, ...screens.flatMap((screen) => [...screen.files])])];
}

/**
 * The chunks of the first screens' own files: one per screen, and one of the files more than
 * one of them loads. Only the product's files are placed; the packages they use are split as
 * the bundler decides, shared with the screens that load later. A file another page of the
 * build can load (`apart`: its entries, relative to `webRoot`, such as the share viewer's)
 * goes into a chunk of the screen's parts that page may load too, never with a file only the
 * app loads: that page must never load a chunk that brings the app with it.
 */
export function firstScreenChunks(webRoot: string, options: { apart: readonly string[] }) {
  const { entry, screens } = firstScreens(webRoot);
  const apart = staticClosure(
    options.apart.map((entry) => path.resolve(webRoot, entry)),
    true,
  );
  const loadedBy = new Map<string, number>();
  for (const screen of screens) {
    for (const file of screen.files) loadedBy.set(file, (loadedBy.get(file) ?? 0) + 1);
  }
  const ownWith = (screen: FirstScreens['screens'][number], otherPage: boolean) => (id: string) =>
    loadedBy.get(id) === 1 && screen.files.has(id) && apart.has(id) === otherPage;
  const shared = new Set(
    [...loadedBy].filter(([file, count]) => count > 1 && !apart.has(file)).map(([file]) => file),
  );
  // The icons they show: each with the screen that alone shows it, the others in one chunk
  // rather than one each (icons hold no product code, so another page may load them too).
  const iconFile = /[\\/]lucide-react[\\/]dist[\\/]esm[\\/]icons[\\/]([\w-]+)\.mjs$/;
  const iconOf = (id: string) => iconFile.exec(id)?.[1];
  const shownBy = new Map<string, Set<string>>();
  for (const [name, files] of [
    ['', entry] as const,
    ...screens.map((screen) => [screen.name, screen.files] as const),
  ]) {
    for (const icon of [...files].flatMap(iconsOf)) {
      shownBy.set(icon, new Set([...(shownBy.get(icon) ?? []), name]));
    }
  }
  // An icon the other pages show too stays with the shared ones, never in a screen's chunk.
  for (const icon of [...apart].flatMap(iconsOf)) {
    if (shownBy.has(icon)) shownBy.set(icon, new Set([...(shownBy.get(icon) ?? []), 'apart']));
  }
  const onlyShownBy = (icon: string | undefined) => {
    const by = icon ? shownBy.get(icon) : undefined;
    return by?.size === 1 ? [...by][0] : undefined;
  };
  return [
    {
      name: 'first-screen-icons',
      test: (id: string) => {
        const icon = iconOf(id);
        return icon !== undefined && shownBy.has(icon) && !onlyShownBy(icon);
      },
      priority: screens.length + 2,
    },
    { name: 'first-screens', test: (id: string) => shared.has(id), priority: screens.length + 1 },
    ...screens.flatMap((screen, index) => [
      {
        name: screen.name,
        test: (id: string) => ownWith(screen, false)(id) || onlyShownBy(iconOf(id)) === screen.name,
        priority: screens.length - index,
      },
      // What it shares with the other pages, which they load too: nothing of the app's own.
      {
        name: `${screen.name}-parts`,
        test: ownWith(screen, true),
        priority: screens.length - index,
      },
    ]),
  ];
}
