import { render } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { type ComponentType, useState } from 'react';
import { vi } from 'vitest';
import type { ApiClient } from '../api/api-client.js';
import { ApiClientProvider } from '../api/api-context.js';
import type { SectionProps } from '../features/section-props.js';
import { fakeApiClient } from './fake-api-client.js';

/** Renders a data section as the shell does: onChange replaces the info it shows. */
export function renderSection<Info>(Section: ComponentType<SectionProps<Info>>, info: Info | null, client: ApiClient = fakeApiClient()) {
  const onChange = vi.fn<(info: Info) => void>();
  const onError = vi.fn<(error: unknown) => void>();
  function Shell() {
    const [current, setCurrent] = useState(info);
    return (
      <Section
        info={current}
        onChange={(next) => {
          onChange(next);
          setCurrent(next);
        }}
        onError={onError}
      />
    );
  }
  const view = render(
    <ApiClientProvider client={client}>
      <Shell />
    </ApiClientProvider>,
  );
  return { user: userEvent.setup(), onChange, onError, unmount: view.unmount };
}
