import type { DepositsInfo } from '../../../contract/deposits.js';
import type { SectionProps } from '../section-props.js';

// TODO(helper): the deposits table and dialogs.
export function DepositsSection({ info }: SectionProps<DepositsInfo>) {
  return <p className="text-body-secondary mb-0">{info?.deposits.length ? `${info.deposits.length} deposits` : 'No deposits yet.'}</p>;
}
