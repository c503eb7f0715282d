/**
 * What every ledger form keeps around its call: the fields' messages and whether a call is on its
 * way. A call that works closes the dialog; one that fails keeps what the user typed, marked with
 * the server's field messages.
 */
import { useState } from 'react';
import type { LedgerInfo } from '../../../../contract/ledger.js';
import type { FieldErrors } from '../../../components/field-errors.js';
import type { RunLedgerCall } from '../use-ledger-call.js';

export function useLedgerForm(runLedgerCall: RunLedgerCall, onClose: () => void) {
  const [errors, setErrors] = useState<FieldErrors>({});
  const [isSending, setIsSending] = useState(false);

  async function send(call: () => Promise<LedgerInfo>): Promise<void> {
    setIsSending(true);
    const outcome = await runLedgerCall(call);
    if (outcome.ok) {
      // Still sending as far as the buttons know: they stay disabled while the dialog fades out.
      onClose();
      return;
    }
    setErrors(outcome.fields);
    setIsSending(false);
  }

  return { errors, setErrors, isSending, send };
}
