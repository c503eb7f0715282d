import { Button } from './button.js';

interface SaveRowProps {
  /** The button's whole text, "Save time zone" say. */
  readonly label: string;
  readonly sending: boolean;
  /** What the last save said: its failure, or what it changed; empty before any. */
  readonly message: string;
}

/**
 * The submit button of an InlineForm and, beside it, a live region saying what the last save did:
 * Settings' sections save on their own and a screen reader hears each answer.
 */
export function SaveRow({ label, sending, message }: SaveRowProps) {
  return (
    <div className="d-flex flex-wrap align-items-center gap-2">
      <Button type="submit" variant="primary" size="sm" disabled={sending}>
        {label}
      </Button>
      <span role="status" className="small">
        {message}
      </span>
    </div>
  );
}
