/**
 * Starts Leftover. The young generation is held at its first size while the server's code loads
 * (young-generation.ts, decision 0113), so the code is imported only once the hold is in place: a
 * static import would be loaded before this module's first line runs.
 */
import { holdYoungGenerationWhileLoading } from './young-generation.js';

const youngGeneration = holdYoungGenerationWhileLoading();
try {
  const { serve } = await import('./serve.js');
  await serve();
} catch (error: unknown) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
} finally {
  youngGeneration.release();
}
