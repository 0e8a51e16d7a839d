import { useQuery } from '@tanstack/react-query';
import { useDataProvider } from 'react-admin';
import type { ConsoleDataProvider } from '../dataProvider';

/** The overviews read their figures again this often, without a reload. */
export const OVERVIEW_REFRESH_MS = 15_000;

/** The overview of the caller's scope (or one place), refreshed every OVERVIEW_REFRESH_MS. */
export function useOverview(placeId?: string) {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  return useQuery({
    queryKey: ['overview', placeId ?? null],
    queryFn: () => dataProvider.overview(placeId),
    refetchInterval: OVERVIEW_REFRESH_MS,
  });
}
