/** A worker thread for thread-priority.test.ts: yields to the server, says its niceness. */
import { parentPort } from 'node:worker_threads';
import { niceness, yieldToTheServer } from '../thread-priority';

yieldToTheServer();
parentPort?.postMessage(niceness());
