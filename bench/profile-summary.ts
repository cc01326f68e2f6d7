/**
 * Reads V8 CPU profiles (`node --cpu-prof`, or `BENCH_CPU_PROF=dir npm run bench`) and
 * prints, for each, where the time went: the functions that spent it themselves, and the
 * share of each package (or of the product's own bundle) anywhere on the stack. A server
 * with worker threads (the summary PDF's) writes a profile for each thread: pass them all.
 *
 *   npx tsx bench/profile-summary.ts dir/*.cpuprofile [how many lines]
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
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

/** A package name, the product's own code, or a Node module; null for native frames. */
function owner(node: ProfileNode): string | null {
  const url = node.callFrame.url;
  if (url.includes('node_modules/')) {
    const parts = url.split('node_modules/').at(-1)?.split('/') ?? [];
    return (parts[0]?.startsWith('@') ? parts.slice(0, 2) : parts.slice(0, 1)).join('/');
  }
  if (url.includes('/dist/server/') || url.includes('/src/')) return 'the product';
  return url.startsWith('node:') ? url : null;
}

/** One profile's summary, its `lines` largest entries in each list. */
function summarise(file: string, lines: number): string {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parents = new Map<number, number>();
  for (const node of profile.nodes) {
    for (const child of node.children ?? []) parents.set(child, node.id);
  }
  const selfTime = new Map<number, number>();
  profile.samples.forEach((id, index) => {
    selfTime.set(id, (selfTime.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0));
  });
  const total = [...selfTime.values()].reduce((sum, time) => sum + time, 0);

  const byFunction = new Map<string, number>();
  const byOwner = new Map<string, number>();
  for (const [id, time] of selfTime) {
    const node = nodes.get(id);
    if (!node) continue;
    const frame = node.callFrame;
    const name = `${frame.functionName || '(anonymous)'} ${shortUrl(frame.url)}:${frame.lineNumber + 1}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + time);
    // Each owner once per sample, however deep it sits on the stack.
    const seen = new Set<string>();
    for (
      let current: number | undefined = id;
      current !== undefined;
      current = parents.get(current)
    ) {
      const ancestor = nodes.get(current);
      if (!ancestor || ancestor.callFrame.functionName === '(root)') continue;
      const name = owner(ancestor);
      if (name === null || seen.has(name)) continue;
      seen.add(name);
      byOwner.set(name, (byOwner.get(name) ?? 0) + time);
    }
  }

  const percent = (time: number) => `${((100 * time) / total).toFixed(1).padStart(5)} %`;
  const top = (entries: Map<string, number>) =>
    [...entries]
      .sort((a, b) => b[1] - a[1])
      .slice(0, lines)
      .map(([name, time]) => `  ${percent(time)}  ${name}`)
      .join('\n');
  return (
    `${file}: ${(total / 1000).toFixed(0)} ms sampled\n\n` +
    `Spent in the function itself:\n${top(byFunction)}\n\n` +
    `Anywhere on the stack, by package:\n${top(byOwner)}\n`
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
