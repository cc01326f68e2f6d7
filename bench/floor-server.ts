/**
 * The floors every endpoint is measured against (bench/floor-app.ts says which), served by
 * one process of its own (`node --import tsx bench/floor-server.ts`, with FLOOR_SPEC naming
 * the spec file; the benchmark starts it under `npm start`'s V8 flags, as the product:
 * processes.ts).
 */
import { readFileSync } from 'node:fs';
import { serve } from '@hono/node-server';
import { createLogger } from '../src/server/logger';
import { floorApp } from './floor-app';
import type { FloorSpec } from './floor-spec';

const specFile = process.env.FLOOR_SPEC;
if (!specFile) throw new Error('FLOOR_SPEC must name the floor spec file');
const spec = JSON.parse(readFileSync(specFile, 'utf8')) as FloorSpec;
// The product writes its log lines to its standard output at the default level; so does this.
const { app, close: closeDatabase } = floorApp(spec, createLogger('info'));

const port = Number(process.env.PORT);
serve({ fetch: app.fetch, port, hostname: process.env.HOST ?? '127.0.0.1' });

const close = () => {
  closeDatabase();
  process.exit(0);
};
process.once('SIGTERM', close);
process.once('SIGINT', close);
