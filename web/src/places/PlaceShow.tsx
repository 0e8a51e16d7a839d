import { Box, Chip, Typography } from '@mui/material';
import {
  EditButton,
  Show,
  TabbedShowLayout,
  TabbedShowLayoutTabs,
  TopToolbar,
  useCanAccess,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { PlaceAppCheckIns } from '../integration/PlaceAppCheckIns';
import { PlaceCheckIns } from '../integration/PlaceCheckIns';
import { PlaceKeys } from '../integration/PlaceKeys';
import { PlacePlans } from '../integration/PlacePlans';
import { PlaceWebhook } from '../integration/PlaceWebhook';
import { NotFoundOrError, stayOnError } from '../common/NotFoundOrError';
import type { Place } from '../types';

const Title = () => {
  const record = useRecordContext<Place>();
  return <>{record?.name ?? ''}</>;
};

const Actions = () => {
  const { canAccess } = useCanAccess({ resource: 'places', action: 'edit' });
  return <TopToolbar>{canAccess && <EditButton />}</TopToolbar>;
};

const Header = () => {
  const place = useRecordContext<Place>();
  const translate = useTranslate();
  if (!place) return null;
  return (
    <Box sx={{ px: 2, pt: 2, display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'center' }}>
      <Typography variant="h5" component="h2" sx={{ mr: 1 }}>
        {place.name}
      </Typography>
      <Chip
        size="small"
        label={`${translate('app.places.code')}: ${place.code}`}
        sx={{ fontFamily: 'monospace' }}
      />
      {place.gym_id !== undefined && (
        <Chip
          size="small"
          label={`${translate('app.places.gym_id')}: ${place.gym_id}`}
          sx={{ fontFamily: 'monospace' }}
        />
      )}
      <Chip
        size="small"
        color={place.active ? 'success' : 'default'}
        variant={place.active ? 'filled' : 'outlined'}
        label={translate(place.active ? 'app.state.active' : 'app.state.inactive')}
      />
    </Box>
  );
};

/** A place and its integration section: keys, webhook and delivery log, plans, recent check-ins, app check-ins. */
export const PlaceShow = () => (
  <Show
    title={<Title />}
    actions={<Actions />}
    {...stayOnError}
    error={<NotFoundOrError what="app.places.one" />}
  >
    <Header />
    <TabbedShowLayout
      tabs={<TabbedShowLayoutTabs variant="scrollable" scrollButtons="auto" allowScrollButtonsMobile />}
    >
      <TabbedShowLayout.Tab label="app.places.tabs.keys">
        <PlaceKeys />
      </TabbedShowLayout.Tab>
      <TabbedShowLayout.Tab label="app.places.tabs.webhook" path="webhook">
        <PlaceWebhook />
      </TabbedShowLayout.Tab>
      <TabbedShowLayout.Tab label="app.places.tabs.plans" path="plans">
        <PlacePlans />
      </TabbedShowLayout.Tab>
      <TabbedShowLayout.Tab label="app.places.tabs.checkins" path="check-ins">
        <PlaceCheckIns />
      </TabbedShowLayout.Tab>
      <TabbedShowLayout.Tab label="app.places.tabs.app_checkins" path="app-check-ins">
        <PlaceAppCheckIns />
      </TabbedShowLayout.Tab>
    </TabbedShowLayout>
  </Show>
);
