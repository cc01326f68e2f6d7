/**
 * The browser tests' patient portal (CONTRACT §6 'Connections'): an app instance with
 * SMART_PROVIDERS for 'Riverside Health' at E2E port+6, against a test SMART server at port+7.
 * Only what connections.spec.ts reads: the fuller version (the servers it starts) comes with
 * the server side of Connections and replaces this one.
 */
const e2ePort = Number(process.env.E2E_PORT ?? 4310);

export const connectionsPort = (port: number) => port + 6;

/** The server with patient portals offered. */
export const connectionsOrigin = () => `http://localhost:${connectionsPort(e2ePort)}`;
