/**
 * The request header that names the budget a call acts on (issue 38, decision 0088). The contract
 * declares it beside the budgets' schemas (contract/budgets.ts); the page's first script carries only
 * this name, not those schemas and the rules they import (benchmark 4a), and a test holds the two equal.
 */
export const BUDGET_HEADER = 'Leftover-Budget';
