/**
 * Vitest's set-up for each API test file: the server runs from source, its worker threads
 * and job processes as `npm run build` builds them (the global set-up's build), as the
 * product runs them. Through tsx each documents process compiled pdf.js for 11 s of CPU
 * before its first job, and now and then filled its heap doing it (decision 0082). A worker
 * the build does not make (the tests' own) still runs from its source.
 */
import { inject } from 'vitest';
import { useBuiltWorkers } from '../runtime/worker-source';

useBuiltWorkers(inject('builtServerDir'));
