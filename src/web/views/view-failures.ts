/**
 * The failed calls as they were caught, and whether the browser had a network then. Apart from
 * view-errors.tsx, which loads the modal's chunk (view-error-report.tsx) that puts them in words:
 * both use this shape, and neither imports the other's module for it.
 */
export interface ViewFailures {
  readonly errors: readonly unknown[];
  readonly browserOffline: boolean;
}
