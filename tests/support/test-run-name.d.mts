/** A test run's name: its start in seconds (captured), "r", hex. */
export const TEST_RUN_NAME: RegExp;
/** A new run's name, starting now. */
export function newTestRunName(): string;
