/**
 * "Extend Ledger": a later End Date for the current ledger. The server appends what creation would
 * have put between the two ends and changes nothing else. The caller remounts it per opening.
 */
import { type ExtendLedgerRequest, extendLedgerRequestSchema } from '../../../../contract/ledger-requests.js';
import { addDays, addMonths, isIsoDate, type IsoDate } from '../../../../domain/calendar-date.js';
import { latestLedgerEnd } from '../../../../domain/ledger-span.js';
import type { SaveOutcome } from '../../../components/field-errors.js';
import { TextInput } from '../../../components/form-controls.js';
import { FormField } from '../../../components/form-field.js';
import { SchemaFormDialog } from '../../../components/schema-form-dialog.js';
import { extensionErrors, type LedgerDates } from '../ledger-rules.js';
import { formatDateText } from './dialog-dates.js';

interface ExtendLedgerDialogProps {
  readonly show: boolean;
  readonly ledger: LedgerDates;
  readonly onSave: (request: ExtendLedgerRequest) => Promise<SaveOutcome>;
  readonly onClose: () => void;
}

interface ExtendLedgerFormValues {
  readonly endDate: string;
}

/** Three months on: a season of paychecks and bills, well inside the five years a ledger may span. */
const EXTENSION_MONTHS = 3;

/** Three months on, or the latest end the ledger may have when that is sooner (near 9999 it always is). */
function proposedEnd(startDate: string, currentEnd: IsoDate): IsoDate {
  const threeMonthsOn = addMonths(currentEnd, EXTENSION_MONTHS);
  if (!isIsoDate(startDate)) return threeMonthsOn;
  const latest = latestLedgerEnd(startDate);
  // A year past 9999 is not a date (isIsoDate), and compares wrongly as text.
  return isIsoDate(threeMonthsOn) && threeMonthsOn <= latest ? threeMonthsOn : latest;
}

export function ExtendLedgerDialog({ show, ledger, onSave, onClose }: ExtendLedgerDialogProps) {
  const currentEnd = isIsoDate(ledger.endDate) ? ledger.endDate : null;
  const initialValues: ExtendLedgerFormValues = { endDate: currentEnd ? proposedEnd(ledger.startDate, currentEnd) : '' };
  return (
    <SchemaFormDialog
      show={show}
      title="Extend Ledger"
      submitLabel="Extend"
      schema={extendLedgerRequestSchema}
      initialValues={initialValues}
      candidateOf={(values) => values}
      check={(values) => extensionErrors(values.endDate, ledger)}
      notice={
        <p>
          Your ledger runs from {formatDateText(ledger.startDate)} to {formatDateText(ledger.endDate)}. Extending adds your deposits and
          expenses up to the new End Date; nothing already in it changes.
        </p>
      }
      renderFields={({ idPrefix, values, errors, onChange }) => (
        <FormField id={`${idPrefix}-end-date`} label="End Date" error={errors.endDate}>
          {(control) => (
            <TextInput
              {...control}
              type="date"
              min={currentEnd ? addDays(currentEnd, 1) : undefined}
              value={values.endDate}
              onValueChange={(endDate) => onChange({ endDate })}
            />
          )}
        </FormField>
      )}
      onSave={onSave}
      onClose={onClose}
    />
  );
}
