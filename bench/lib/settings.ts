/** How long each benchmark runs: the full run the targets are judged on, or a quick look while working. */
export interface BenchSettings {
  /** BENCH_QUICK=1: fewer and shorter samples; the figures are rougher and only for a first look. */
  readonly quick: boolean;
}

export function settingsFromEnvironment(env: NodeJS.ProcessEnv): BenchSettings {
  return { quick: env.BENCH_QUICK === '1' };
}
