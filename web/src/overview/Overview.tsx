import RefreshIcon from '@mui/icons-material/Refresh';
import { Alert, Box, Button, Stack, Typography } from '@mui/material';
import { Title, useGetIdentity, useLocaleState, useTranslate } from 'react-admin';
import { formatDateTime, formatDuration } from '../common/format';
import type { Overview as OverviewData } from '../types';
import { CheckInChart } from './CheckInChart';
import { EndpointList } from './EndpointList';
import { PlaceCards } from './PlaceCards';
import { StatCard } from './StatCard';
import { useOverview } from './useOverview';

/** Waiting longer than this, the oldest delivery is worth a look. */
const SLOW_WAIT_SECONDS = 300;

const Figures = ({ data, loading }: { data: OverviewData | undefined; loading: boolean }) => {
  const translate = useTranslate();
  const deliveries = data?.deliveries;
  const last24 = data?.check_ins.last_24_hours;
  const members = data?.member_check_ins;
  const oldest = deliveries?.oldest_waiting_seconds ?? null;
  return (
    <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr 1fr', md: 'repeat(5, 1fr)' } }}>
      <StatCard
        label={translate('app.overview.visits_today')}
        value={data?.check_ins.visits_today ?? 0}
        detail={translate('app.overview.recorded_24h', { smart_count: last24?.recorded ?? 0 })}
        loading={loading}
      />
      <StatCard
        label={translate('app.overview.refused_24h')}
        value={last24?.refused ?? 0}
        detail={translate('app.overview.eligible_24h', { smart_count: last24?.eligible ?? 0 })}
        tone={last24 && last24.refused > 0 ? 'warning' : 'normal'}
        loading={loading}
      />
      <StatCard
        label={translate('app.overview.failed_deliveries')}
        value={deliveries?.failed ?? 0}
        detail={translate('app.overview.delivered_24h', { smart_count: deliveries?.delivered ?? 0 })}
        tone={deliveries && deliveries.failed > 0 ? 'bad' : 'good'}
        to={`/deliveries?filter=${encodeURIComponent(JSON.stringify({ failing: true }))}`}
        loading={loading}
      />
      <StatCard
        label={translate('app.overview.waiting_deliveries')}
        value={deliveries?.waiting ?? 0}
        detail={
          oldest === null
            ? translate('app.overview.nothing_waiting')
            : translate('app.overview.oldest_waiting', {
                age: formatDuration(oldest),
                smart_count: deliveries?.retrying ?? 0,
              })
        }
        tone={oldest !== null && oldest > SLOW_WAIT_SECONDS ? 'warning' : 'normal'}
        loading={loading}
      />
      <StatCard
        label={translate('app.overview.app_checkins_pending')}
        value={members?.pending ?? 0}
        detail={translate('app.overview.app_checkins_24h', {
          expired: members?.expired ?? 0,
          validated: members?.validated ?? 0,
        })}
        tone={members && members.expired > 0 ? 'warning' : 'normal'}
        loading={loading}
      />
    </Box>
  );
};

/**
 * The home page: what is wrong first. Staff see every place (check-ins, deliveries, the receivers in trouble);
 * a gym account sees its own places, each with today's visits and its webhook's health, then the same figures.
 * It reads them again every 15 seconds.
 */
export const Overview = () => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const { identity } = useGetIdentity();
  const { data, error, isPending, refetch, isFetching } = useOverview();
  const gym = identity?.account?.role === 'gym';
  return (
    <Stack spacing={2} sx={{ p: { xs: 1, sm: 2 }, pt: { xs: 2 } }}>
      <Title title="app.overview.title" />
      <Stack
        direction="row"
        sx={{ alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap', gap: 1 }}
      >
        <Typography variant="h5" component="h2">
          {translate(gym ? 'app.overview.gym_heading' : 'app.overview.heading')}
        </Typography>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <Typography variant="caption" color="text.secondary">
            {data
              ? translate('app.overview.updated', { when: formatDateTime(data.generated_at, locale) })
              : ''}
          </Typography>
          <Button size="small" startIcon={<RefreshIcon />} onClick={() => refetch()} disabled={isFetching}>
            {translate('ra.action.refresh')}
          </Button>
        </Stack>
      </Stack>
      {error && (
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={() => refetch()}>
              {translate('app.action.retry')}
            </Button>
          }
        >
          {translate('app.error.load_failed')} {translate(error.message, { _: error.message })}
        </Alert>
      )}
      {gym && data?.places && data.places.length === 0 && (
        <Alert severity="info">{translate('app.places.none_hint_gym')}</Alert>
      )}
      {gym && data?.places && data.places.length > 0 && <PlaceCards places={data.places} />}
      <Figures data={data} loading={isPending} />
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', lg: '3fr 2fr' } }}>
        <CheckInChart hourly={data?.check_ins.hourly} daily={data?.check_ins.daily} loading={isPending} />
        <EndpointList endpoints={data?.endpoints} loading={isPending} />
      </Box>
    </Stack>
  );
};
