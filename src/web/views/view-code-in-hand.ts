/**
 * The Ledger's and Plan's code as the document ran it (decision 0127). On those addresses the HTML's
 * own script writes the view's chunk into the document as a module script of its own, run with the
 * entry's, in the same task: the view's module then says here that it is in, and the page renders it
 * without an `import()`, whose answer came 5 to 15 ms after the code was in (benchmark 12). Any other
 * way in (another address, the development server, a chunk the document did not run) still imports it.
 */
import type { ComponentType } from 'react';

/** The views whose own chunk the document may run: the lazy ones (Home is the first script's). */
export type ViewWithCode = 'ledger' | 'plan';

const inHand = new Map<ViewWithCode, ComponentType>();

/** Called once by the view's own module as it is evaluated. */
export function viewCodeArrived(view: ViewWithCode, component: ComponentType): void {
  inHand.set(view, component);
}

/** The view's component, if its module has been evaluated. */
export function viewCodeInHand(view: ViewWithCode): ComponentType | undefined {
  return inHand.get(view);
}
