/**
 * The fixed payee names the Name field offers (PRODUCT.md section 7), and the rule that decides
 * which of them to show for what the user has typed.
 */
export const NAME_SUGGESTIONS = [
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
] as const;

/**
 * The suggestions that start with the typed text, ignoring case, in the list's order. Nothing
 * shows for empty text, nor once the text already is a suggestion: the user has picked or typed
 * it, and a list repeating it would only cover the fields below.
 */
export function matchingSuggestions(typed: string, suggestions: readonly string[] = NAME_SUGGESTIONS): string[] {
  if (typed === '') return [];
  const prefix = typed.toLowerCase();
  if (suggestions.some((suggestion) => suggestion.toLowerCase() === prefix)) return [];
  return suggestions.filter((suggestion) => suggestion.toLowerCase().startsWith(prefix));
}
