/**
 * V8 doubles its young generation (the semi-spaces where new objects start) each time more bytes
 * survive its scavenges than the young generation holds. Loading the server's code is all survivors
 * (every module's functions, schemas and tables live as long as the process), so the start alone grows
 * it from 1 to 8 MB a semi-space: 16 MB of memory held after the start with almost nothing in it, which
 * V8 gives back only after about ten idle seconds. Held at its first size while the code loads, the
 * young generation grows again as V8 decides once the server is serving (decision 0113).
 *
 * The growth factor is read by V8 each time it grows the young generation, so setting it at run time
 * works; this was measured on V8 11 (Node 20). Newer V8s size the young generation by the memory
 * they see and clamp this flag to at least 2, so there the hold is left out and V8 decides alone.
 */
import v8 from 'node:v8';

const GROWTH_FACTOR_FLAG = 'semi-space-growth-factor';
/** V8's own default for the growth factor (flag-definitions.h), restored once the code is loaded. */
const V8_DEFAULT_GROWTH_FACTOR = 2;
/** The V8 major versions this hold was measured on. */
const MEASURED_V8_MAJORS = new Set([11]);

export interface YoungGenerationHold {
  /** Whether the growth factor was changed (false: another V8, or the operator set the flag). */
  readonly held: boolean;
  /** Lets the young generation grow as V8 decides again; calling it twice does nothing more. */
  release(): void;
}

/**
 * The flag as the operator may have given it on the command line or in NODE_OPTIONS: V8 takes
 * dashes or underscores alike, and then it is theirs to keep.
 */
function setByOperator(commandLine: readonly string[]): boolean {
  return commandLine.some((argument) => argument.replaceAll('_', '-').includes(GROWTH_FACTOR_FLAG));
}

export function holdYoungGenerationWhileLoading({
  v8Version = process.versions.v8,
  commandLine = [...process.execArgv, process.env.NODE_OPTIONS ?? ''],
  setFlags = (flags: string) => v8.setFlagsFromString(flags),
}: {
  readonly v8Version?: string;
  readonly commandLine?: readonly string[];
  readonly setFlags?: (flags: string) => void;
} = {}): YoungGenerationHold {
  const major = Number(v8Version.split('.')[0]);
  if (!MEASURED_V8_MAJORS.has(major) || setByOperator(commandLine)) return { held: false, release: () => undefined };
  setFlags(`--${GROWTH_FACTOR_FLAG}=1`);
  let released = false;
  return {
    held: true,
    release: () => {
      if (released) return;
      released = true;
      setFlags(`--${GROWTH_FACTOR_FLAG}=${V8_DEFAULT_GROWTH_FACTOR}`);
    },
  };
}
