import { describe, expect, it } from 'vitest';
import { activityText, actorName, describeChange, MAX_ACTIVITY_WHAT_LENGTH, onlyMakerCanUndo, settingsChanged } from './activity.js';
import { cents } from './money.js';

describe("the activity's words", () => {
  it('says what each kind of change did, after the name', () => {
    expect(activityText('Alex', describeChange({ kind: 'row', verb: 'paid', name: 'Rent' }))).toBe('Alex paid Rent');
    expect(describeChange({ kind: 'import', rows: 23, account: 'Checking' })).toBe('imported 23 rows into Checking');
    expect(describeChange({ kind: 'import', rows: 1, account: 'Checking' })).toBe('imported 1 row into Checking');
    expect(describeChange({ kind: 'import', rows: 1200, account: 'Checking' })).toBe('imported 1,200 rows into Checking');
    expect(describeChange({ kind: 'undo', undone: 'paid Rent' })).toBe('undid paid Rent');
    expect(describeChange({ kind: 'undo', undone: null })).toBe('undid a change');
    expect(describeChange({ kind: 'schedule', verb: 'deleted', schedule: 'expense', name: 'Gym' })).toBe('deleted the expense Gym');
    expect(describeChange({ kind: 'transfer', name: 'Rainy day', from: 'Checking', to: 'Savings' })).toBe(
      'moved Rainy day from Checking to Savings',
    );
    expect(describeChange({ kind: 'bank', rows: 3 })).toBe('brought 3 rows from the bank');
    expect(describeChange({ kind: 'row', verb: 'added', name: ' ' })).toBe('added a row');
    expect(describeChange({ kind: 'joined', role: 'VIEWER' })).toBe('joined as a viewer');
    expect(describeChange({ kind: 'role', member: null, role: 'OWNER' })).toBe('made a member an owner');
    expect(describeChange({ kind: 'removed', member: 'Sam' })).toBe('removed Sam');
    expect(activityText('Alex', describeChange({ kind: 'invited', role: 'EDITOR' }))).toBe('Alex invited someone as an editor');
    expect(describeChange({ kind: 'revoked', role: 'VIEWER' })).toBe('revoked an invitation to join as a viewer');
    expect(activityText('Alex', describeChange({ kind: 'bank connection', verb: 'connected' }))).toBe('Alex connected a bank');
    expect(describeChange({ kind: 'bank connection', verb: 'disconnected' })).toBe('disconnected a bank');
  });

  it("says which of the budget's forecast settings changed, and to what (decision 0100)", () => {
    expect(describeChange({ kind: 'settings', changed: { timeZone: 'America/Chicago' } })).toBe('set the time zone to America/Chicago');
    expect(describeChange({ kind: 'settings', changed: { keepAtLeast: cents(20000), everydayWeekly: null } })).toBe(
      'set Keep at least to $200.00 and turned off everyday spending',
    );
    expect(describeChange({ kind: 'settings', changed: { timeZone: 'UTC', keepAtLeast: cents(0), everydayWeekly: cents(15050) } })).toBe(
      'set the time zone to UTC, set Keep at least to $0.00 and set everyday spending to $150.50 a week',
    );
    expect(settingsChanged({})).toBe(false);
    expect(settingsChanged({ everydayWeekly: null })).toBe(true);
  });

  it('keeps every entry within its bound, however long the names', () => {
    const what = describeChange({ kind: 'transfer', name: 'x'.repeat(200), from: 'y'.repeat(200), to: 'z' });
    expect(what).toHaveLength(MAX_ACTIVITY_WHAT_LENGTH);
    expect(what.endsWith('…')).toBe(true);
  });

  it('names a maker by their name, never anything else', () => {
    expect(actorName('Sam', true)).toBe('Sam');
    expect(actorName(null, true)).toBe('A member');
    expect(actorName(null, false)).toBe('Bank sync');
    expect(onlyMakerCanUndo('Alex')).toBe('Only Alex can undo this.');
  });
});
