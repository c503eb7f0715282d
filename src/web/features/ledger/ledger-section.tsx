import type { LedgerInfo } from '../../../contract/ledger.js';
import type { SectionProps } from '../section-props.js';

export interface LedgerSectionProps extends SectionProps<LedgerInfo> {
  /** Reloads the ledger from the server (the Refresh button). */
  readonly onRefresh: () => Promise<void>;
}

// TODO(helper): the ledger table and dialogs.
export function LedgerSection({ info }: LedgerSectionProps) {
  return <p className="text-body-secondary mb-0">{info?.ledger ? 'Ledger' : 'No ledger yet.'}</p>;
}
