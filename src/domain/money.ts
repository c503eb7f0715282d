/**
 * Money is integer cents everywhere inside Leftover. Dollars exist only at the API edge (JSON
 * numbers with at most two decimals) and in formatting, so 0.10 + 0.20 is exactly 0.30.
 */
declare const centsBrand: unique symbol;
export type Cents = number & { readonly [centsBrand]: 'Cents' };

/** The largest amount a user may enter: $99,999,999.99. */
export const MAX_AMOUNT_CENTS = 9_999_999_999 as Cents;

export function cents(value: number): Cents {
  if (!Number.isSafeInteger(value)) {
    throw new RangeError(`cents must be a safe integer, got ${value}`);
  }
  return value as Cents;
}

/**
 * True when a JSON number is a dollar amount with at most two decimal places. Rounding to the
 * nearest cent and dividing back gives the same double exactly when the literal had <= 2 decimals.
 */
export function hasAtMostTwoDecimals(dollars: number): boolean {
  return Number.isFinite(dollars) && Math.round(dollars * 100) / 100 === dollars;
}

/** Converts an API dollar amount (already checked by hasAtMostTwoDecimals) to cents. */
export function dollarsToCents(dollars: number): Cents {
  if (!hasAtMostTwoDecimals(dollars)) {
    throw new RangeError(`not a dollar amount with at most two decimals: ${dollars}`);
  }
  return cents(Math.round(dollars * 100));
}

/** The nearest double to the decimal amount, which JSON prints with at most two decimals. */
export function centsToDollars(amount: Cents): number {
  return amount / 100;
}

export function sumCents(amounts: Iterable<Cents>): Cents {
  let total = 0;
  for (const amount of amounts) total += amount;
  return cents(total);
}

/**
 * amount x numerator / denominator rounded half-up (away from zero for positive amounts), in
 * integer arithmetic so no float ever touches money.
 */
export function multiplyRatioHalfUp(amount: Cents, numerator: number, denominator: number): Cents {
  const product = BigInt(amount) * BigInt(numerator);
  const divisor = BigInt(denominator);
  const sign = product < 0n ? -1n : 1n;
  const magnitude = product * sign;
  const rounded = (magnitude * 2n + divisor) / (divisor * 2n);
  return cents(Number(rounded * sign));
}

// Made on first use: the server loads this module but never formats an amount, and Intl's first
// use costs about 5 MB of locale data (decision 0041).
let usd: Intl.NumberFormat | undefined;

/** "$1,234.56", "-$12.00": what the user sees for an amount. */
export function formatUsd(amount: Cents): string {
  usd ??= new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
  return usd.format(centsToDollars(amount));
}
