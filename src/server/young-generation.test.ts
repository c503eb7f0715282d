import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { holdYoungGenerationWhileLoading } from './young-generation.js';

const MIB = 1024 * 1024;

function recorded(v8Version: string, commandLine: readonly string[] = []) {
  const flags: string[] = [];
  const hold = holdYoungGenerationWhileLoading({ v8Version, commandLine, setFlags: (set) => flags.push(set) });
  return { hold, flags };
}

describe('holdYoungGenerationWhileLoading', () => {
  it('holds the growth factor at 1 on V8 11 and gives V8 its default back once, however often released', () => {
    const { hold, flags } = recorded('11.3.244.8-node.38');
    expect(hold.held).toBe(true);
    expect(flags).toEqual(['--semi-space-growth-factor=1']);
    hold.release();
    hold.release();
    expect(flags).toEqual(['--semi-space-growth-factor=1', '--semi-space-growth-factor=2']);
  });

  it('leaves V8s it was not measured on alone', () => {
    for (const version of ['12.4.254.21-node.33', '13.6.233.10-node.27', '10.2.154.26-node.26']) {
      const { hold, flags } = recorded(version);
      hold.release();
      expect(hold.held).toBe(false);
      expect(flags).toEqual([]);
    }
  });

  it('leaves the flag to an operator who set it, with dashes or underscores, on the command line or in NODE_OPTIONS', () => {
    for (const commandLine of [['--semi-space-growth-factor=4'], ['--max-old-space-size=512 --semi_space_growth_factor=3']]) {
      const { hold, flags } = recorded('11.3.244.8-node.38', commandLine);
      hold.release();
      expect(hold.held).toBe(false);
      expect(flags).toEqual([]);
    }
  });

  it('keeps a fresh process young generation at its first size while code loads, and lets it grow after release', () => {
    // A fresh process (this one's young generation has long since grown): long-lived objects made
    // while held, as loading modules makes them, then as many again after release. The size read is
    // the one V8 sets (space_size); the memory behind it (physical_space_size) is committed page by
    // page and lagged behind under load (15.0 of 16 MiB in one CI run, 16.5 of 32 on 2 busy cores).
    const script = `
      import v8 from 'node:v8';
      import { holdYoungGenerationWhileLoading } from ${JSON.stringify(path.join(import.meta.dirname, 'young-generation.ts'))};
      const youngGeneration = () => v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space').space_size;
      const kept = [];
      const survivors = (count) => { for (let index = 0; index < count; index += 1) kept.push({ index, name: 'row ' + index }); };
      const hold = holdYoungGenerationWhileLoading();
      survivors(400000);
      const held = youngGeneration();
      hold.release();
      survivors(400000);
      console.log(JSON.stringify({ held: hold.held, whileHeld: held, afterRelease: youngGeneration(), kept: kept.length }));
    `;
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH, HOME: process.env.HOME },
    });
    expect(child.stderr).toBe('');
    const sizes = JSON.parse(child.stdout) as { held: boolean; whileHeld: number; afterRelease: number; kept: number };
    expect(sizes.kept).toBe(800_000);
    expect(sizes.held).toBe(process.versions.v8.startsWith('11.'));
    if (!sizes.held) return;
    // V8 may still take one step up from its very first size; held, it stays a few MiB, where it
    // grows to 16 MiB and more (32 here) once released.
    expect(sizes.whileHeld).toBeLessThanOrEqual(4 * MIB + 64 * 1024);
    expect(sizes.afterRelease).toBeGreaterThanOrEqual(4 * sizes.whileHeld);
  });
});
