import { describe, expect, it } from 'vitest';
import { type AliasedOperation, API_PREFIX, ENDPOINTS, failureOf } from './common.js';
import { aliasIdParameter, budgetPlaceOf, ENDPOINT_SCHEMAS, endpointRoutes, endpointRows, PERSON } from './endpoints.js';

describe('the endpoint table', () => {
  const rows = endpointRows();
  const routes = endpointRoutes();

  it('has schemas for every row it names, and for no other', () => {
    expect(Object.keys(ENDPOINT_SCHEMAS).sort()).toEqual(Object.keys(ENDPOINTS).sort());
    expect(rows.map((row) => row.operation)).toEqual(Object.keys(ENDPOINTS));
  });

  it('names each call once, under the API prefix, and each by an operationId of its own', () => {
    const calls = routes.map((route) => `${route.method} ${route.path}`);
    expect(new Set(calls).size).toBe(calls.length);
    for (const route of routes)
      expect(route.path, route.operationId).toMatch(new RegExp(`^${API_PREFIX}(/([a-z0-9.-]+|:[a-z][A-Za-z]*))+$`));
    const operationIds = routes.map((route) => route.operationId);
    expect(new Set(operationIds).size).toBe(operationIds.length);
  });

  it('checks the id of every path that names a row, and takes no body on a read', () => {
    for (const route of routes) {
      expect(route.params !== undefined, route.operationId).toBe(route.path.includes(':id'));
      if (route.method === 'GET') expect(route.body, route.operationId).toBeUndefined();
    }
  });

  it('gives every call its own failure message, as SPEC.md section 8 words them', () => {
    const messages = routes.map((route) => route.failure);
    expect(new Set(messages).size).toBe(messages.length);
    for (const message of messages) expect(message).toMatch(/^Failed to .+!$/);
  });

  it('says what every call does in one line of its own', () => {
    const summaries = routes.map((route) => route.summary);
    expect(new Set(summaries).size).toBe(summaries.length);
    for (const summary of summaries) expect(summary).toMatch(/^[A-Z][^\n]{4,99}$/);
  });

  it("aliases only an account's ledger calls, each at its path without the account, on the primary account", () => {
    const aliased = rows.filter((row) => row.primary !== undefined);
    expect(aliased.map((row) => row.operation)).toEqual([
      'getLedger',
      'createLedger',
      'getForecast',
      'extendLedger',
      'addTransaction',
      'updateTransaction',
      'deleteTransaction',
      'previewStatement',
      'importStatement',
      'exportLedgerCsv',
    ]);
    for (const row of aliased) {
      expect(row.path, row.operation).toMatch(/^\/api\/accounts\/:id\/ledger\//);
      // The row's own parameter (a ledger row's `:transaction`) is `:id` at the alias, as SPEC.md spells it.
      expect(row.primary?.path, row.operation).toBe(row.path.replace('/accounts/:id', '').replace(/:\w+/, ':id'));
      expect(aliasIdParameter(row.operation as AliasedOperation), row.operation).toBe(
        row.operation === 'deleteTransaction' ? 'transaction' : undefined,
      );
    }
  });

  it("names each call's failure by its operationId, an alias's as `<operation>Primary`", () => {
    for (const route of routes) {
      expect(route.operationId).toBe(route.atPrimary ? `${route.operation}Primary` : route.operation);
      expect(failureOf(route.operationId), route.operationId).toBe(route.failure);
    }
  });

  it('says who may make every call: reads a viewer, changes an editor, members, invitations and your data an owner (decision 0088)', () => {
    const named = (keep: (row: (typeof rows)[number]) => boolean) => rows.filter(keep).map((row) => row.operation);
    for (const row of rows) {
      expect(row.roles === PERSON || (Array.isArray(row.roles) && row.roles.length > 0), row.operation).toBe(true);
    }
    expect(named((row) => row.roles === PERSON)).toEqual([
      'getNotifications',
      'updateNotifications',
      'addNotificationChannel',
      'removeNotificationChannel',
      'testNotificationChannel',
      'getPushKey',
      'listBudgets',
      'createBudget',
      'viewInvitation',
      'acceptInvitation',
      'declineInvitation',
    ]);
    const roles = (row: (typeof rows)[number]) => (row.roles === PERSON ? [] : row.roles);
    expect(named((row) => row.roles !== PERSON && !roles(row).includes('EDITOR'))).toEqual([
      'exportYourData',
      'restoreYourData',
      'deleteYourData',
      'renameBudget',
      'deleteBudget',
      'updateMember',
      'removeMember',
      'listInvitations',
      'createInvitation',
      'revokeInvitation',
      'sendInvitation',
    ]);
    // A viewer reads; of the calls that are not GETs, only a what-if (which stores nothing) and leaving are theirs.
    expect(named((row) => row.method !== 'GET' && roles(row).includes('VIEWER'))).toEqual(['whatIf', 'leaveBudget', 'setBudgetNotify']);
    expect(named((row) => row.method === 'GET' && row.roles !== PERSON && !roles(row).includes('VIEWER'))).toEqual([
      'exportYourData',
      'listInvitations',
    ]);
    for (const row of rows)
      expect(
        roles(row).every((role) => ['OWNER', 'EDITOR', 'VIEWER'].includes(role)),
        row.operation,
      ).toBe(true);
  });

  it("acts on the budget a path names under /api/budgets/:id, on the header's elsewhere, and on none for a PERSON call", () => {
    const at = (place: string) => routes.filter((route) => budgetPlaceOf(route) === place).map((route) => route.operationId);
    expect(at('path')).toEqual([
      'renameBudget',
      'deleteBudget',
      'listMembers',
      'updateMember',
      'removeMember',
      'leaveBudget',
      'setBudgetNotify',
      'listActivity',
      'listInvitations',
      'createInvitation',
      'revokeInvitation',
      'sendInvitation',
    ]);
    expect(at('none')).toEqual(routes.filter((route) => route.roles === PERSON).map((route) => route.operationId));
    expect(at('header').length + at('path').length + at('none').length).toBe(routes.length);
  });
});
