/**
 * `npx tsx bench/rejudge.ts [bench/results/latest.json]`: a saved run's figures held to the
 * budgets as they are now (bench/config.ts), without measuring again. Prints the report
 * `npm run bench` would have printed; the file itself is left as the run wrote it.
 */
import { readFileSync } from 'node:fs';
import { rejudge, type SavedRun } from './report';

const file = process.argv[2] ?? 'bench/results/latest.json';
process.stdout.write(rejudge(JSON.parse(readFileSync(file, 'utf8')) as SavedRun));
