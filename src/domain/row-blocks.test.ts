import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareRows, type RowOrderKey } from './balances.js';
import { fromDayNumber, isoDate, toDayNumber } from './calendar-date.js';
import { BLOCK_ROWS, blockIndexFor, blockSizes, cutIntoBlocks, MIN_BLOCK_ROWS } from './row-blocks.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 300);
const BASE = toDayNumber(isoDate('2027-01-01'));

/** Keys crowded onto a few days and names, equal but for case and creation order: ties everywhere. */
const keysArbitrary: fc.Arbitrary<RowOrderKey[]> = fc
  .array(
    fc.record({
      day: fc.integer({ min: 0, max: 3 }),
      type: fc.constantFrom('C' as const, 'D' as const),
      name: fc.constantFrom('Rent', 'rent', 'Coffee', 'Zoo', 'Épicerie'),
    }),
    { maxLength: 400 },
  )
  .map((drafts) =>
    drafts.map((draft, index) => ({ date: fromDayNumber(BASE + draft.day), type: draft.type, name: draft.name, sequence: index + 1 })),
  );

describe('row blocks', () => {
  it('cuts any number of rows into consecutive blocks of at most BLOCK_ROWS and, past one block, at least MIN_BLOCK_ROWS', () => {
    fc.assert(
      fc.property(fc.oneof(fc.nat({ max: 1_000 }), fc.nat({ max: 20_000 })), (count) => {
        const sizes = blockSizes(count);
        expect(sizes.reduce((sum, size) => sum + size, 0)).toBe(count);
        expect(sizes.filter((size) => size > BLOCK_ROWS || (sizes.length > 1 && size < MIN_BLOCK_ROWS))).toEqual([]);
        const rows = Array.from({ length: count }, (_, index) => index);
        const cut = cutIntoBlocks(rows);
        expect(cut.map((block) => block.length)).toEqual(sizes);
        expect(cut.flat().every((row, index) => row === index)).toBe(true);
      }),
      { numRuns: RUNS },
    );
  });

  it('finds for any key the block whose stretch of row order holds it, from the blocks’ low keys alone', () => {
    fc.assert(
      fc.property(keysArbitrary, keysArbitrary, (stored, probes) => {
        fc.pre(stored.length > 0);
        const blocks = cutIntoBlocks([...stored].sort(compareRows));
        const lows = blocks.map((block) => block[0] as RowOrderKey);
        const misplaced = [...stored, ...probes.map((probe) => ({ ...probe, sequence: probe.sequence + stored.length }))].filter((key) => {
          const index = blockIndexFor(lows, key);
          // After the low key of its block (but the first), before the low key of the next.
          const next = lows[index + 1];
          return (index > 0 && compareRows(lows[index] as RowOrderKey, key) > 0) || (next !== undefined && compareRows(key, next) >= 0);
        });
        expect(misplaced).toEqual([]);
        const moved = blocks.flatMap((block, index) => block.filter((key) => blockIndexFor(lows, key) !== index));
        expect(moved).toEqual([]);
      }),
      { numRuns: Math.max(30, RUNS / 5) },
    );
  });
});
