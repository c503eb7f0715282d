import { describe, expect, it } from 'vitest';
import { matchingSuggestions, NAME_SUGGESTIONS } from './name-suggestions.js';

describe('name suggestions', () => {
  it('holds exactly the 22 names of PRODUCT.md section 7', () => {
    expect(NAME_SUGGESTIONS).toEqual([
      'Walmart',
      'Target',
      'Costco',
      'Kroger',
      'Safeway',
      'Whole Foods',
      "Trader Joe's",
      'Aldi',
      'Publix',
      "McDonald's",
      'Starbucks',
      'Chipotle',
      'Subway',
      'Chick-fil-A',
      'Taco Bell',
      "Domino's",
      'ATM Withdrawal',
      'Cash Deposit',
      'Venmo',
      'Zelle',
      'PayPal',
      'Cash App',
    ]);
  });

  it('matches by prefix, ignoring case, in list order', () => {
    expect(matchingSuggestions('c')).toEqual(['Costco', 'Chipotle', 'Chick-fil-A', 'Cash Deposit', 'Cash App']);
    expect(matchingSuggestions('CASH')).toEqual(['Cash Deposit', 'Cash App']);
    expect(matchingSuggestions('tr')).toEqual(["Trader Joe's"]);
  });

  it('matches only at the start of a name', () => {
    expect(matchingSuggestions('mart')).toEqual([]);
    expect(matchingSuggestions('Foods')).toEqual([]);
  });

  it('shows nothing for empty text', () => {
    expect(matchingSuggestions('')).toEqual([]);
  });

  it('hides the list once the text equals a suggestion, whatever its case', () => {
    expect(matchingSuggestions('Target')).toEqual([]);
    expect(matchingSuggestions('target')).toEqual([]);
    expect(matchingSuggestions('cash app')).toEqual([]);
  });

  it('keeps longer names that share a prefix until the text is a whole name', () => {
    expect(matchingSuggestions('Cash ')).toEqual(['Cash Deposit', 'Cash App']);
    expect(matchingSuggestions('Subway sandwich')).toEqual([]);
  });
});
