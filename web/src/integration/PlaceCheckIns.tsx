import { Card } from '@mui/material';
import { ListBase, Pagination, useListContext, useRecordContext } from 'react-admin';
import { EmptyState } from '../common/EmptyState';
import { ListError } from '../common/ListError';
import type { Place } from '../types';
import { VisitTable } from '../visits/VisitTable';

const Visits = () => {
  const { error } = useListContext();
  if (error) return <ListError />;
  return (
    <>
      <VisitTable
        showPlace={false}
        empty={<EmptyState title="app.checkins.none" hint="app.checkins.none_hint_place" />}
      />
      <Pagination rowsPerPageOptions={[]} />
    </>
  );
};

/** Visits recorded at the place, newest first (the place's own route, 50 a page). */
export const PlaceCheckIns = () => {
  const place = useRecordContext<Place>();
  if (!place) return null;
  return (
    <Card variant="outlined" sx={{ maxWidth: 960 }}>
      <ListBase
        resource="place-visits"
        filter={{ place_id: place.id }}
        perPage={50}
        disableSyncWithLocation
        storeKey={false}
        queryOptions={{ onError: () => undefined }}
      >
        <Visits />
      </ListBase>
    </Card>
  );
};
