/**
 * "Your data"'s calls (issue 15): download everything, restore from a file, delete everything.
 * Built on the api client's own `request` and `download`, in a lazy chunk: only the Your data panel
 * loads it, so the page's first view carries none of it (benchmark 4a, decision 0044).
 */
import { createContext, useContext, useMemo } from 'react';
import { type YourDataCounts, yourDataCountsSchema } from '../../contract/your-data-counts.js';
import { useApiClient } from './api-context.js';
import { type ApiClient, endpoint } from './api-client.js';

export interface YourDataApi {
  readonly exportYourData: () => Promise<Blob>;
  /** The document as read from the user's file: the server checks all of it. */
  readonly restoreYourData: (document: unknown) => Promise<YourDataCounts>;
  readonly deleteYourData: () => Promise<YourDataCounts>;
}

export function yourDataApi(api: ApiClient): YourDataApi {
  return {
    exportYourData: () => api.download(endpoint('exportYourData')),
    restoreYourData: (document) => api.request({ ...endpoint('restoreYourData'), answer: yourDataCountsSchema, body: document }),
    deleteYourData: () => api.request({ ...endpoint('deleteYourData'), answer: yourDataCountsSchema, body: { confirm: 'DELETE' } }),
  };
}

const YourDataApiContext = createContext<YourDataApi | null>(null);

/** Component tests hand the panel their own calls; the page builds them from the api client. */
export const YourDataApiProvider = YourDataApiContext.Provider;

export function useYourDataApi(): YourDataApi {
  const api = useApiClient();
  const given = useContext(YourDataApiContext);
  return useMemo(() => given ?? yourDataApi(api), [given, api]);
}
