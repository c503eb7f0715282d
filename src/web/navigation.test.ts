/**
 * Addresses that carry the budget (decision 0092): the personal budget's are what they always
 * were, a move within the page keeps the budget in view, a switch names another, and the sign-in's
 * return keeps an invitation's fragment.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { addressInBudget, budgetOfAddress, navigate, safeReturnAddress } from './navigation.js';

const here = () => `${window.location.pathname}${window.location.search}${window.location.hash}`;

afterEach(() => window.history.replaceState(null, '', '/'));

describe('addresses and the budget', () => {
  it('names no budget for the personal one, and keeps the query of its own', () => {
    expect(budgetOfAddress('')).toBeUndefined();
    expect(budgetOfAddress('?budget=b1&account=a1')).toBe('b1');
    expect(addressInBudget('/ledger?account=a1', undefined)).toBe('/ledger?account=a1');
    expect(addressInBudget('/ledger?account=a1', 'b1')).toBe('/ledger?account=a1&budget=b1');
    expect(addressInBudget('/plan?budget=b1', undefined)).toBe('/plan');
  });

  it('moves within the budget in view, and switches when told', () => {
    window.history.replaceState(null, '', '/?budget=b1');
    navigate('/plan');
    expect(here()).toBe('/plan?budget=b1');
    expect(addressInBudget('/ledger')).toBe('/ledger?budget=b1');
    navigate('/plan', { budget: 'b2' });
    expect(here()).toBe('/plan?budget=b2');
    navigate('/', { budget: null });
    expect(here()).toBe('/');
    navigate('/ledger');
    expect(here()).toBe('/ledger');
  });

  it("takes the sign-in's return as it was left: its budget, or an invitation's fragment", () => {
    window.history.replaceState(null, '', '/login/callback?code=c&state=s');
    navigate(safeReturnAddress('/plan?budget=b1'), { replace: true });
    expect(here()).toBe('/plan?budget=b1');
    window.history.replaceState(null, '', '/login/callback?code=c&state=s');
    navigate(safeReturnAddress('/join#Abcdefghijklmnopqrstuvwxyz012345'), { replace: true });
    expect(here()).toBe('/join#Abcdefghijklmnopqrstuvwxyz012345');
  });
});
