import { List, Pagination, useListContext, type ListProps } from 'react-admin';
import { ListError } from './ListError';

/** No pages to turn when the list could not be read. */
const ListPagination = () => {
  const { error } = useListContext();
  return error ? null : <Pagination />;
};

/**
 * react-admin's List with the console's error state: the service's sentence inside the list, with a way to
 * try again, instead of a toast over an empty table.
 */
export const ScreenList = ({ queryOptions, ...props }: ListProps) => (
  <List
    error={<ListError />}
    pagination={<ListPagination />}
    queryOptions={{ onError: () => undefined, ...queryOptions }}
    {...props}
  />
);
