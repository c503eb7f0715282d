/** How long each benchmark runs: the full run the targets are judged on, or a quick look while working. */
export interface BenchSettings {
  /** BENCH_QUICK=1: fewer and shorter samples; the figures are rougher and only for a first look. */
  readonly quick: boolean;
  /** The parts asked for by letter ("9d" on the command line asks for part d of benchmark 9); empty: all of them. */
  readonly parts: ReadonlySet<string>;
}

export function settingsFromEnvironment(env: NodeJS.ProcessEnv): BenchSettings {
  return { quick: env.BENCH_QUICK === '1', parts: new Set() };
}
