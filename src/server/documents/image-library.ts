/**
 * sharp as every part of the documents pipeline uses it, set once in the process it loads in
 * (the server, or a job process): no cache of decoded images (each file's copies are made
 * once), and libvips' threads per image by the memory budget (config/memory.ts: one under
 * 1 GB, where each thread's share of a 12-megapixel photo counts). A job process reads the
 * budget from the environment it inherits from the server, which checked it at start.
 */
import sharp from 'sharp';
import { memoryPlanOf } from '../config/memory';

sharp.cache(false);
const { imageThreads } = memoryPlanOf(process.env);
if (imageThreads > 0) sharp.concurrency(imageThreads);

export default sharp;
export type { Sharp } from 'sharp';
