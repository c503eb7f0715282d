/**
 * "Card Settings": a card's closing and due days, Pay From, payment rule and limit, as stored, to
 * change (PATCH /api/accounts/{id} with `card`; the server projects its payments afresh, decision 0045).
 */
import type { AccountView } from '../../../contract/account-codecs.js';
import { type CardInput, accountUpdateSchema } from '../../../contract/account-input.js';
import type { SaveOutcome } from '../../components/field-errors.js';
import { SchemaFormDialog } from '../../components/schema-form-dialog.js';
import { cardCandidate, cardFormOf } from './account-form-values.js';
import { CardFields } from './card-fields.js';

interface CardSettingsDialogProps {
  readonly show: boolean;
  /** The card, or null while none is chosen (the dialog is closed then). */
  readonly card: AccountView | null;
  readonly accounts: readonly AccountView[];
  readonly onSave: (card: CardInput) => Promise<SaveOutcome>;
  readonly onClose: () => void;
}

export function CardSettingsDialog({ show, card, accounts, onSave, onClose }: CardSettingsDialogProps) {
  if (card?.card == null) return null;
  return (
    <SchemaFormDialog
      show={show}
      title={`${card.name} Card Settings`}
      submitLabel="Save"
      schema={accountUpdateSchema}
      initialValues={cardFormOf(card.card)}
      candidateOf={(values) => ({ card: cardCandidate(values) })}
      renderFields={({ idPrefix, values, errors, onChange }) => (
        <CardFields idPrefix={idPrefix} values={values} errors={errors} accounts={accounts} onChange={onChange} />
      )}
      onSave={(update) => (update.card ? onSave(update.card) : Promise.resolve({}))}
      onClose={onClose}
    />
  );
}
