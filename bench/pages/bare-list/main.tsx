/**
 * Benchmark 12's bare page, the physical limit of a first view on this machine: React 19 built by
 * the same Vite and React plugin as Leftover's page, served by the same server, asking for one JSON
 * answer as soon as its one script runs and rendering what came back as a list. The answer is the
 * view's own answers joined (`/bench-bare/data/<view>.json`, written by the benchmark); like the
 * API's answers (Cache-Control: no-store) it comes from the server every time.
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

/** Every element of every list in the answers, one list item each, as text. */
function itemsOf(answers: unknown): string[] {
  const items: string[] = [];
  const add = (value: unknown) => {
    if (Array.isArray(value)) for (const entry of value) items.push(JSON.stringify(entry));
  };
  for (const answer of Array.isArray(answers) ? answers : [answers]) {
    if (Array.isArray(answer)) add(answer);
    else if (answer !== null && typeof answer === 'object') for (const value of Object.values(answer)) add(value);
  }
  return items;
}

const view = new URLSearchParams(window.location.search).get('data') ?? 'ledger';
const answer = fetch(`/bench-bare/data/${encodeURIComponent(view)}.json`, { cache: 'no-store' }).then((response) => response.json());
const root = createRoot(document.getElementById('root') as HTMLElement);

void answer.then((answers: unknown) =>
  root.render(
    <StrictMode>
      <ul data-bare-list="">
        {itemsOf(answers).map((item, index) => (
          <li key={index}>{item}</li>
        ))}
      </ul>
    </StrictMode>,
  ),
);
