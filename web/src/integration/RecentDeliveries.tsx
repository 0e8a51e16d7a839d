import RefreshIcon from '@mui/icons-material/Refresh';
import { Box, Button, Card, CardContent, Typography } from '@mui/material';
import { useId } from 'react';
import { ListBase, Pagination, useListContext, useTranslate } from 'react-admin';
import { ListError } from '../common/ListError';
import { DeliveryTable } from '../deliveries/DeliveryTable';
import type { Delivery } from '../types';
import { handler } from '../common/handler';

const WATCH_MS = 60_000;

const Log = () => {
  const { error, refetch, isFetching } = useListContext();
  const translate = useTranslate();
  return (
    <>
      <Box sx={{ display: 'flex', justifyContent: 'flex-end', px: 1 }}>
        <Button
          size="small"
          startIcon={<RefreshIcon />}
          onClick={handler(() => refetch())}
          disabled={isFetching}
        >
          {translate('ra.action.refresh')}
        </Button>
      </Box>
      {error ? <ListError /> : <DeliveryTable showPlace={false} />}
      <Pagination rowsPerPageOptions={[10, 25, 50]} />
    </>
  );
};

/** The place's delivery log; it refreshes itself while something is on its way (e.g. a test event). */
export const RecentDeliveries = ({ placeId, watchSince }: { placeId: string; watchSince: number | null }) => {
  const translate = useTranslate();
  const headingId = useId();
  return (
    <Card component="section" aria-labelledby={headingId} variant="outlined">
      <CardContent sx={{ pb: 0 }}>
        <Typography id={headingId} variant="h6" component="h3">
          {translate('app.delivery.log_title')}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {translate('app.delivery.log_intro')}
        </Typography>
      </CardContent>
      <ListBase
        resource="deliveries"
        filter={{ place_id: placeId }}
        perPage={10}
        disableSyncWithLocation
        storeKey={false}
        queryOptions={{
          onError: () => undefined,
          refetchInterval: (query) => {
            const rows = (query.state.data as { data?: Delivery[] } | undefined)?.data ?? [];
            const busy = rows.some((row) => row.status === 'pending' || row.status === 'queued');
            const watching = watchSince !== null && Date.now() - watchSince < WATCH_MS;
            return busy || watching ? 1500 : false;
          },
        }}
      >
        <Log />
      </ListBase>
    </Card>
  );
};
