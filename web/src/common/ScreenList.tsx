import { LinearProgress } from '@mui/material';
import type { ReactNode } from 'react';
import { List, Pagination, useListContext, useTranslate, type ListProps } from 'react-admin';
import { ListError } from './ListError';

/** No pages to turn when the list could not be read. */
const ListPagination = () => {
  const { error } = useListContext();
  return error ? null : <Pagination />;
};

/** A bar across the top of the list while its page is being read, so an empty area never looks final. */
export const ListLoading = () => {
  const { isPending, isFetching, error } = useListContext();
  const translate = useTranslate();
  if (error || !(isPending || isFetching)) return null;
  return (
    <LinearProgress
      aria-label={translate('ra.page.loading')}
      sx={{ position: 'absolute', top: 0, left: 0, right: 0 }}
    />
  );
};

/**
 * react-admin's List with the console's error state (the service's sentence inside the list, with a way to try
 * again, instead of a toast over an empty table) and its loading state.
 */
export const ScreenList = ({ queryOptions, children, ...props }: ListProps & { children: ReactNode }) => (
  <List
    error={<ListError />}
    pagination={<ListPagination />}
    queryOptions={{ onError: () => undefined, ...queryOptions }}
    sx={{ '& .RaList-content': { position: 'relative' } }}
    {...props}
  >
    <ListLoading />
    {children}
  </List>
);
