/**
 * The app shell: four collapsible sections, all open, composed from the feature folders. The
 * shell owns loading and the error modal; features do not import each other.
 */
import { Accordion } from 'react-bootstrap';
import { useCallback, useEffect, useState } from 'react';
import { cents } from '../domain/money.js';
import { ApiCallError } from './api/api-client.js';
import { useApiClient } from './api/api-context.js';
import { type ErrorReport, ErrorModal } from './components/error-modal.js';
import { SummarySection } from './features/summary/summary-section.js';

const SECTIONS = ['summary', 'deposits', 'expenses', 'ledger'] as const;

export function reportOf(errors: readonly unknown[]): ErrorReport {
  const messages: string[] = [];
  const details: string[] = [];
  for (const error of errors) {
    if (error instanceof ApiCallError) {
      messages.push(error.message);
      details.push(error.detail);
    } else {
      messages.push('Something went wrong.');
      details.push(error instanceof Error ? error.message : String(error));
    }
  }
  return { messages: [...new Set(messages)], details: [...new Set(details)] };
}

export function Dashboard() {
  const api = useApiClient();
  const [report, setReport] = useState<ErrorReport | null>(null);

  const load = useCallback(async () => {
    const results = await Promise.allSettled([api.getProfile()]);
    const failures = results.flatMap((result) => (result.status === 'rejected' ? [result.reason] : []));
    setReport(failures.length > 0 ? reportOf(failures) : null);
  }, [api]);

  useEffect(() => {
    void load();
  }, [load]);

  return (
    <>
      <Accordion alwaysOpen defaultActiveKey={[...SECTIONS]} className="dashboard">
        <Accordion.Item eventKey="summary">
          <Accordion.Header as="h2">Summary</Accordion.Header>
          <Accordion.Body>
            <SummarySection totalDeposits={cents(0)} totalExpenses={cents(0)} />
          </Accordion.Body>
        </Accordion.Item>
        <Accordion.Item eventKey="deposits">
          <Accordion.Header as="h2">Deposits</Accordion.Header>
          <Accordion.Body>
            <p className="text-body-secondary mb-0">No deposits yet.</p>
          </Accordion.Body>
        </Accordion.Item>
        <Accordion.Item eventKey="expenses">
          <Accordion.Header as="h2">Expenses</Accordion.Header>
          <Accordion.Body>
            <p className="text-body-secondary mb-0">No expenses yet.</p>
          </Accordion.Body>
        </Accordion.Item>
        <Accordion.Item eventKey="ledger">
          <Accordion.Header as="h2">Ledger</Accordion.Header>
          <Accordion.Body>
            <p className="text-body-secondary mb-0">No ledger yet.</p>
          </Accordion.Body>
        </Accordion.Item>
      </Accordion>
      <ErrorModal
        report={report}
        onAbort={() => setReport(null)}
        onRetry={() => {
          setReport(null);
          void load();
        }}
      />
    </>
  );
}
