/**
 * Reads V8 CPU profiles (`node --cpu-prof`, or `BENCH_CPU_PROF=dir npm run bench`) and
 * prints, for each, where the time went: the functions that spent it themselves, and the
 * share of each package (or of the product's own code) anywhere on the stack. A server
 * with worker threads (the summary PDF's) writes a profile for each thread: pass them all.
 * A frame in the server's bundle is named by the source its map gives: the product's file
 * and line, or, in a bundle built with `--full-source-maps`, the dependency's package.
 *
 *   npx tsx bench/profile-summary.ts dir/*.cpuprofile [how many lines]
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
  // Still in the bundle: with a map, code it gives no source (the dependencies, in a map cut
  // down to the product's own sources); without one, anything in the bundle.
  if (url.includes('/dist/server/')) return mapOf(url) ? 'bundled dependencies' : 'the bundle';
  return url.startsWith('node:') ? url : null;
}

/** One profile's summary, its `lines` largest entries in each list. */
function summarise(file: string, lines: number): string {
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
  const total = [...selfTime.values()].reduce((sum, time) => sum + time, 0);
  // Shares are of the time the thread was busy: a server under a benchmark also waits.
  let busy = 0;

  const byFunction = new Map<string, number>();
  const byOwner = new Map<string, number>();
  const byOwnFile = new Map<string, number>();
  // Each sample once, by the package whose function spent it (a native frame by its name).
  const selfByOwner = new Map<string, number>();
  for (const [id, time] of selfTime) {
    const node = nodes.get(id);
    if (!node) continue;
    const frame = node.callFrame;
    if (frame.functionName === '(idle)') continue;
    busy += time;
    const name = `${frame.functionName || '(anonymous)'} ${shortUrl(frame.url)}:${frame.lineNumber + 1}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + time);
    const spender = owner(frame) ?? (frame.functionName || '(native)');
    selfByOwner.set(spender, (selfByOwner.get(spender) ?? 0) + time);
    // Each owner once per sample, however deep it sits on the stack.
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
        byOwnFile.set(ownFile, (byOwnFile.get(ownFile) ?? 0) + time);
      }
      if (name === null || seen.has(name)) continue;
      seen.add(name);
      byOwner.set(name, (byOwner.get(name) ?? 0) + time);
    }
  }

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

const files = process.argv.slice(2);
// A last argument that is a number is how many lines; every other one is a profile.
const lines = files.length > 1 && /^\d+$/.test(files.at(-1)!) ? Number(files.pop()) : 25;
if (!files.length) {
  process.stderr.write('usage: npx tsx bench/profile-summary.ts <file.cpuprofile>… [lines]\n');
  process.exit(2);
}
process.stdout.write(files.map((file) => summarise(file, lines)).join('\n'));
