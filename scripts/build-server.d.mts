/** Builds the server into `outDir` (default dist/server); answers where its entry point is. */
export function buildServer(options?: { outDir?: string; sourcemap?: boolean }): Promise<{ main: string }>;
