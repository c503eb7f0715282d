/** The spec's striped, bordered, hover-highlighted table, as plain Bootstrap markup. */
import type { ReactNode } from 'react';

/**
 * A row of these tables with its Edit and Delete buttons is about 49 px tall at the default size;
 * a little less here, so a first frame guessed from it holds a row too many rather than too few.
 */
export const ESTIMATED_DATA_ROW_HEIGHT = 44;

interface DataTableProps {
  readonly children: ReactNode;
  readonly className?: string;
  /** Scrolls sideways on narrow screens instead of overflowing the page. */
  readonly responsive?: boolean;
  /**
   * False when the rows carry their own stripe class: Bootstrap stripes every other `tr` in the
   * DOM, which the spacer rows of a windowed table would shift as it scrolls.
   */
  readonly striped?: boolean;
  /** All rows of a table whose DOM holds only some of them (header row included), for assistive technology. */
  readonly rowCount?: number;
}

export function DataTable({ children, className, responsive = false, striped = true, rowCount }: DataTableProps) {
  const classes = ['table', striped ? 'table-striped' : '', 'table-bordered table-hover', className ?? ''].filter(Boolean).join(' ');
  const table = (
    <table className={classes} aria-rowcount={rowCount}>
      {children}
    </table>
  );
  return responsive ? <div className="table-responsive">{table}</div> : table;
}
