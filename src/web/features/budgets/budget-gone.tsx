/**
 * What the page says when a call for the budget in view answered 404 "No such budget." (issue 38,
 * point 4): the user was removed, or left in another tab. It names the budget as the page knew it,
 * shows nothing more of it, and offers the user's own budget.
 */
import { useEffect, useRef } from 'react';
import { Button } from '../../components/button.js';

interface BudgetGoneProps {
  /** The budget's name as the page last knew it; undefined when it never knew it (an old link). */
  readonly name: string | undefined;
  readonly onBack: () => void;
}

export function BudgetGone({ name, onBack }: BudgetGoneProps) {
  const heading = useRef<HTMLParagraphElement>(null);
  // The view the user was in is gone from under them: focus moves to what replaced it.
  useEffect(() => heading.current?.focus(), []);
  return (
    <div className="alert alert-warning my-4" role="alert">
      <p className="fs-5" tabIndex={-1} ref={heading}>
        You are no longer a member of {name ?? 'this budget'}.
      </p>
      <Button variant="primary" onClick={onBack}>
        Go to your own budget
      </Button>
    </div>
  );
}
