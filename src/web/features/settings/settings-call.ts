/**
 * How each of Settings' calls ends (decision 0062), the one place that catches their failures.
 * Settings sits beside "Your data", outside the views and their "Whoops!", so a failure is told
 * where it was asked: the server's message for a field the form shows goes beside that field, and
 * any other failure is said in words, as `form`, beside the button that sent it.
 */
import { ApiCallError } from '../../api/api-client.js';
import type { FieldErrors, SaveOutcome } from '../../components/field-errors.js';
import { problemOf } from './settings-words.js';

/** What the form shows of a failure: its own fields' messages, or else the failure in words. */
function failureOf(error: unknown, shownFields: readonly string[]): FieldErrors {
  const named = error instanceof ApiCallError ? Object.entries(error.fields).filter(([field]) => shownFields.includes(field)) : [];
  return named.length > 0 ? Object.fromEntries(named) : { form: problemOf(error) };
}

/**
 * Sends one call and hands its answer on: undefined when it worked, else what to show.
 * `shownFields`: the request's fields the form marks (none for a button that is not a form's).
 */
export async function settingsCall<Answer>(
  call: () => Promise<Answer>,
  onAnswer: (answer: Answer) => void,
  shownFields: readonly string[] = [],
): Promise<SaveOutcome> {
  let answer: Answer;
  try {
    answer = await call();
  } catch (error) {
    return failureOf(error, shownFields);
  }
  onAnswer(answer);
  return undefined;
}
