/** The spec's striped, bordered, hover-highlighted table, as plain Bootstrap markup. */
import type { ReactNode } from 'react';

interface DataTableProps {
  readonly children: ReactNode;
  readonly className?: string;
  /** Scrolls sideways on narrow screens instead of overflowing the page. */
  readonly responsive?: boolean;
}

export function DataTable({ children, className, responsive = false }: DataTableProps) {
  const table = <table className={['table table-striped table-bordered table-hover', className ?? ''].filter(Boolean).join(' ')}>{children}</table>;
  return responsive ? <div className="table-responsive">{table}</div> : table;
}
