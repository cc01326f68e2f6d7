/**
 * Reads V8 CPU profiles (`node --cpu-prof`, or `BENCH_CPU_PROF=dir npm run bench`) and
 * prints, for each, where the time went: the functions that spent it themselves, and the
 * share of each package (or of the product's own code) anywhere on the stack. A server
 * with worker threads (the summary PDF's) writes a profile for each thread: pass them all.
 * A frame in the server's bundle is named by the source its map gives: the product's file
 * and line, or, in a bundle built with `--full-source-maps`, the dependency's package.
 *
 *   npx tsx bench/profile-summary.ts dir/*.cpuprofile [how many lines]
 *
 * Two servers profiled under the same load (the product and its checked ideal endpoint's
 * floor server), each with how many requests it answered meanwhile, side by side in µs a
 * request: what the first spends that the second does not, function by function.
 *
 *   npx tsx bench/profile-summary.ts --beside product.cpuprofile=18325 floor.cpuprofile=21430 [lines]
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { originalPositionFor, TraceMap } from '@jridgewell/trace-mapping';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber?: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const shortUrl = (url: string) =>
  url
    .replace(/^file:\/\//, '')
    .replace(/.*node_modules\//, '')
    .replace(process.cwd() + '/', '');

const maps = new Map<string, TraceMap | null>();

/** The source map beside a bundle the frame ran in, if it has one. */
function mapOf(url: string): TraceMap | null {
  if (!maps.has(url)) {
    const mapFile = url.startsWith('file://') ? `${fileURLToPath(url)}.map` : '';
    maps.set(
      url,
      mapFile && existsSync(mapFile)
        ? new TraceMap(readFileSync(mapFile, 'utf8'), pathToFileURL(mapFile).href)
        : null,
    );
  }
  return maps.get(url) ?? null;
}

/**
 * The frame where its source map puts it. A frame the map gives no source (a dependency's
 * code, in a map cut down to the product's own sources) stays in the bundle.
 */
function original(frame: CallFrame): CallFrame {
  const map = frame.lineNumber >= 0 ? mapOf(frame.url) : null;
  if (!map) return frame;
  const position = originalPositionFor(map, {
    line: frame.lineNumber + 1,
    column: frame.columnNumber ?? 0,
  });
  if (position.source === null) return frame;
  return {
    functionName: frame.functionName,
    url: position.source,
    lineNumber: position.line - 1,
  };
}

/** A package name, the product's own code, or a Node module; null for native frames. */
function owner(frame: CallFrame): string | null {
  const url = frame.url;
  if (url.includes('node_modules/')) {
    const parts = url.split('node_modules/').at(-1)?.split('/') ?? [];
    return (parts[0]?.startsWith('@') ? parts.slice(0, 2) : parts.slice(0, 1)).join('/');
  }
  if (url.includes('/src/')) return 'the product';
  // The floors' own code (bench/floor-app.ts, run from its source).
  if (url.includes('/bench/')) return 'the benchmark';
  // Still in the bundle: with a map, code it gives no source (the dependencies, in a map cut
  // down to the product's own sources); without one, anything in the bundle.
  if (url.includes('/dist/server/')) return mapOf(url) ? 'bundled dependencies' : 'the bundle';
  return url.startsWith('node:') ? url : null;
}

/** Where one profile's time went: by function and by package, in µs, the idle time left out. */
interface Spent {
  /** All the time sampled, and the part of it the thread was busy. */
  total: number;
  busy: number;
  /** Each function's own time, by its name, file and line. */
  byFunction: Map<string, number>;
  /** Each sample once, by the package whose function spent it (a native frame by its name). */
  selfByOwner: Map<string, number>;
  /** Each package once per sample, however deep it sits on the stack. */
  byOwner: Map<string, number>;
  /** The same for each of the product's own files. */
  byOwnFile: Map<string, number>;
}

const add = (entries: Map<string, number>, key: string, time: number) =>
  entries.set(key, (entries.get(key) ?? 0) + time);

function spentIn(file: string): Spent {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const nodes = new Map(
    profile.nodes.map((node) => [node.id, { ...node, callFrame: original(node.callFrame) }]),
  );
  const parents = new Map<number, number>();
  for (const node of profile.nodes) {
    for (const child of node.children ?? []) parents.set(child, node.id);
  }
  const selfTime = new Map<number, number>();
  profile.samples.forEach((id, index) => {
    selfTime.set(id, (selfTime.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0));
  });
  const spent: Spent = {
    total: [...selfTime.values()].reduce((sum, time) => sum + time, 0),
    // Shares are of the time the thread was busy: a server under a benchmark also waits.
    busy: 0,
    byFunction: new Map(),
    selfByOwner: new Map(),
    byOwner: new Map(),
    byOwnFile: new Map(),
  };
  for (const [id, time] of selfTime) {
    const node = nodes.get(id);
    if (!node) continue;
    const frame = node.callFrame;
    if (frame.functionName === '(idle)') continue;
    spent.busy += time;
    const name = `${frame.functionName || '(anonymous)'} ${shortUrl(frame.url)}:${frame.lineNumber + 1}`;
    add(spent.byFunction, name, time);
    add(spent.selfByOwner, owner(frame) ?? (frame.functionName || '(native)'), time);
    const seen = new Set<string>();
    const seenFiles = new Set<string>();
    for (
      let current: number | undefined = id;
      current !== undefined;
      current = parents.get(current)
    ) {
      const ancestor = nodes.get(current);
      if (!ancestor || ancestor.callFrame.functionName === '(root)') continue;
      const name = owner(ancestor.callFrame);
      const ownFile = name === 'the product' ? shortUrl(ancestor.callFrame.url) : null;
      if (ownFile && !seenFiles.has(ownFile)) {
        seenFiles.add(ownFile);
        add(spent.byOwnFile, ownFile, time);
      }
      if (name === null || seen.has(name)) continue;
      seen.add(name);
      add(spent.byOwner, name, time);
    }
  }
  return spent;
}

/** One profile's summary, its `lines` largest entries in each list. */
function summarise(file: string, lines: number): string {
  const { total, busy, byFunction, selfByOwner, byOwner, byOwnFile } = spentIn(file);
  const percent = (time: number) => `${((100 * time) / busy).toFixed(1).padStart(5)} %`;
  const top = (entries: Map<string, number>) =>
    [...entries]
      .sort((a, b) => b[1] - a[1])
      .slice(0, lines)
      .map(([name, time]) => `  ${percent(time)}  ${name}`)
      .join('\n');
  return (
    `${file}: ${(total / 1000).toFixed(0)} ms sampled, ${(busy / 1000).toFixed(0)} ms busy (the shares below are of it)\n\n` +
    `Spent in the function itself:\n${top(byFunction)}\n\n` +
    `Spent in each package's own functions (they add up to the whole):\n${top(selfByOwner)}\n\n` +
    `Anywhere on the stack, by package:\n${top(byOwner)}\n\n` +
    `Anywhere on the stack, by the product's own file:\n${top(byOwnFile)}\n`
  );
}

/**
 * Two servers' profiles under the same load, each with how many requests it answered while
 * profiled (`file=requests`): each one's busy time a request, and where the first spent more
 * a request than the second, by function and by package (its own functions), the `lines`
 * largest differences each way. What the first does that the second does not is at the top.
 */
function beside(first: string, second: string, lines: number): string {
  const [a, b] = [first, second].map((argument) => {
    const match = /^(.+)=(\d+)$/.exec(argument);
    if (!match) throw new Error(`--beside takes file=requests, not ${argument}`);
    return { file: match[1]!, requests: Number(match[2]), spent: spentIn(match[1]!) };
  });
  const perRequest = (time: number, requests: number) => time / requests;
  const format = (value: number) => value.toFixed(1).padStart(8);
  const compare = (pick: (spent: Spent) => Map<string, number>) => {
    const [entriesA, entriesB] = [pick(a!.spent), pick(b!.spent)];
    const rows = [...new Set([...entriesA.keys(), ...entriesB.keys()])].map((name) => {
      const timeA = perRequest(entriesA.get(name) ?? 0, a!.requests);
      const timeB = perRequest(entriesB.get(name) ?? 0, b!.requests);
      return { name, timeA, timeB, more: timeA - timeB };
    });
    rows.sort((x, y) => y.more - x.more);
    const shown = [...rows.slice(0, lines), ...rows.slice(lines).slice(-lines)];
    return shown
      .map((row) => `${format(row.more)}${format(row.timeA)}${format(row.timeB)}  ${row.name}`)
      .join('\n');
  };
  const header = `${'more'.padStart(8)}${'first'.padStart(8)}${'second'.padStart(8)}`;
  return (
    `µs of busy time a request: ${perRequest(a!.spent.busy, a!.requests).toFixed(1)} in ${a!.file} ` +
    `(${a!.requests} requests), ${perRequest(b!.spent.busy, b!.requests).toFixed(1)} in ${b!.file} ` +
    `(${b!.requests} requests)\n\n` +
    `By function, its own time (µs a request):\n${header}\n${compare((spent) => spent.byFunction)}\n\n` +
    `By package, its own functions (µs a request):\n${header}\n${compare((spent) => spent.selfByOwner)}\n`
  );
}

const files = process.argv.slice(2);
// A last argument that is a number is how many lines; every other one is a profile.
const lines = files.length > 1 && /^\d+$/.test(files.at(-1)!) ? Number(files.pop()) : 25;
if (files[0] === '--beside' && files.length === 3) {
  process.stdout.write(beside(files[1]!, files[2]!, lines));
} else if (files.length && !files.includes('--beside')) {
  process.stdout.write(files.map((file) => summarise(file, lines)).join('\n'));
} else {
  process.stderr.write(
    'usage: npx tsx bench/profile-summary.ts <file.cpuprofile>… [lines]\n' +
      '       npx tsx bench/profile-summary.ts --beside <first.cpuprofile>=<requests> <second.cpuprofile>=<requests> [lines]\n',
  );
  process.exit(2);
}
