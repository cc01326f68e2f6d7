import type { BuildOptions } from 'esbuild';

export const serverBundleOptions: BuildOptions;
export function buildServer(outdir: string, options?: { fullSourceMaps?: boolean }): Promise<void>;
