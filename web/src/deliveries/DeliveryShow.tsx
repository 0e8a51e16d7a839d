import ReplayIcon from '@mui/icons-material/Replay';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  LinearProgress,
  Link as MuiLink,
  Stack,
  Typography,
} from '@mui/material';
import { useState } from 'react';
import {
  Show,
  TopToolbar,
  useCanAccess,
  useDataProvider,
  useNotify,
  useRecordContext,
  useRefresh,
  useTranslate,
} from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { CopyButton } from '../common/CopyButton';
import { DateTimeText } from '../common/fields';
import { NotFoundOrError, stayOnError } from '../common/NotFoundOrError';
import type { ConsoleDataProvider } from '../dataProvider';
import type { Attempt, Delivery } from '../types';
import { DeliveryOutcomeChip } from './DeliveryOutcomeChip';
import { EndpointHealthAlert } from './EndpointHealth';
import { endpointHealth } from './endpointHealth';

/** attempt_log is absent while the page still shows the list's copy of the delivery. */
type DeliveryRecord = Delivery & { attempt_log?: Attempt[] };

const Pre = ({ children, label }: { children: string; label: string }) => (
  <Box
    component="pre"
    aria-label={label}
    tabIndex={0}
    sx={{
      m: 0,
      p: 1.5,
      bgcolor: 'action.hover',
      borderRadius: 1,
      fontSize: '0.8rem',
      overflow: 'auto',
      maxHeight: 320,
      whiteSpace: 'pre-wrap',
      wordBreak: 'break-word',
    }}
  >
    {children}
  </Box>
);

const Fact = ({ label, children }: { label: string; children: React.ReactNode }) => {
  const translate = useTranslate();
  return (
    <>
      <Typography component="dt" variant="body2" color="text.secondary">
        {translate(label)}
      </Typography>
      <Typography component="dd" variant="body2" sx={{ m: 0, wordBreak: 'break-all' }}>
        {children}
      </Typography>
    </>
  );
};

const RedeliverButton = () => {
  const delivery = useRecordContext<DeliveryRecord>();
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const { canAccess } = useCanAccess({ resource: 'deliveries', action: 'redeliver' });
  const [busy, setBusy] = useState(false);
  if (!delivery || !canAccess) return null;
  const waiting = delivery.status === 'pending' || delivery.status === 'queued';
  const redeliver = async () => {
    setBusy(true);
    try {
      await dataProvider.redeliver(delivery.id);
      notify('app.delivery.redelivered', { type: 'success' });
      refresh();
    } catch (error) {
      notify((error as Error).message, { type: 'error' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button
      variant="contained"
      startIcon={<ReplayIcon />}
      onClick={redeliver}
      disabled={busy || waiting}
      title={waiting ? translate('app.delivery.redeliver_waiting') : undefined}
    >
      {translate('app.delivery.redeliver')}
    </Button>
  );
};

const AttemptCard = ({ attempt }: { attempt: Attempt }) => {
  const translate = useTranslate();
  const ok = attempt.status_code !== null && attempt.status_code >= 200 && attempt.status_code < 300;
  return (
    <Card
      variant="outlined"
      component="article"
      aria-label={translate('app.delivery.attempt_n', { n: attempt.number })}
    >
      <CardContent>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', mb: 1 }}>
          <Typography variant="subtitle1" component="h4">
            {translate('app.delivery.attempt_n', { n: attempt.number })}
          </Typography>
          <Typography variant="body2" color={ok ? 'success.main' : 'error.main'} sx={{ fontWeight: 500 }}>
            {attempt.status_code !== null
              ? `HTTP ${attempt.status_code}`
              : translate('app.delivery.no_response')}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            <DateTimeText value={attempt.created_at} />
            {attempt.duration_ms !== null && ` · ${attempt.duration_ms} ms`}
          </Typography>
        </Stack>
        <Typography variant="body2" color="text.secondary" sx={{ wordBreak: 'break-all', mb: 1 }}>
          {attempt.url}
        </Typography>
        {attempt.error && attempt.error !== `HTTP ${attempt.status_code}` && (
          <Alert severity="error" sx={{ mb: 1 }}>
            {attempt.error}
          </Alert>
        )}
        <Typography variant="caption" color="text.secondary" component="p">
          {translate('app.delivery.response_body')}
        </Typography>
        {attempt.response_body ? (
          <Pre label={translate('app.delivery.response_body')}>{attempt.response_body}</Pre>
        ) : (
          <Typography variant="body2" color="text.secondary">
            {translate('app.delivery.empty_body')}
          </Typography>
        )}
      </CardContent>
    </Card>
  );
};

const DeliveryDetail = () => {
  const delivery = useRecordContext<DeliveryRecord>();
  const translate = useTranslate();
  if (!delivery) return null;
  return (
    <Stack spacing={2} sx={{ p: { xs: 1, sm: 2 }, maxWidth: 1000 }}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
        <Typography variant="h5" component="h2">
          {translate(`app.delivery.event.${delivery.event_type}`, { _: delivery.event_type })}
        </Typography>
        <DeliveryOutcomeChip delivery={delivery} />
        <Box sx={{ flex: 1 }} />
        <RedeliverButton />
      </Stack>
      {endpointHealth(delivery.endpoint_state).kind !== 'healthy' && (
        <EndpointHealthAlert state={delivery.endpoint_state} />
      )}
      <Card variant="outlined">
        <CardContent>
          <Box
            component="dl"
            sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '200px 1fr' }, gap: 1, m: 0 }}
          >
            <Fact label="app.delivery.place">
              <MuiLink
                component={RouterLink}
                to={`/places/${encodeURIComponent(delivery.place_id)}/show/webhook`}
                underline="hover"
              >
                {delivery.place_name}
              </MuiLink>
            </Fact>
            <Fact label="app.delivery.url">{delivery.url}</Fact>
            <Fact label="app.delivery.event_id">
              <span style={{ fontFamily: 'monospace' }}>{delivery.event_id}</span>
            </Fact>
            {delivery.request_id && (
              <Fact label="app.delivery.request_id">
                <Box
                  component="span"
                  sx={{ display: 'inline-flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}
                >
                  <span style={{ fontFamily: 'monospace' }}>{delivery.request_id}</span>
                  <CopyButton value={delivery.request_id} what="app.delivery.request_id" />
                </Box>
              </Fact>
            )}
            <Fact label="app.delivery.created_at">
              <DateTimeText value={delivery.created_at} />
            </Fact>
            {delivery.delivered_at && (
              <Fact label="app.delivery.delivered_at">
                <DateTimeText value={delivery.delivered_at} />
              </Fact>
            )}
            {delivery.next_attempt_at && (
              <Fact label="app.delivery.next_attempt_at">
                <DateTimeText value={delivery.next_attempt_at} />
              </Fact>
            )}
          </Box>
        </CardContent>
      </Card>
      <Typography variant="h6" component="h3">
        {translate('app.delivery.attempts_title')}
      </Typography>
      {delivery.attempt_log === undefined ? (
        <LinearProgress aria-label={translate('ra.page.loading')} />
      ) : delivery.attempt_log.length === 0 ? (
        <Alert severity="info">{translate('app.delivery.no_attempts')}</Alert>
      ) : (
        delivery.attempt_log.map((attempt) => <AttemptCard key={attempt.number} attempt={attempt} />)
      )}
      <Typography variant="h6" component="h3">
        {translate('app.delivery.payload')}
      </Typography>
      <Pre label={translate('app.delivery.payload')}>{JSON.stringify(delivery.payload ?? null, null, 2)}</Pre>
    </Stack>
  );
};

const Title = () => {
  const delivery = useRecordContext<DeliveryRecord>();
  const translate = useTranslate();
  return <>{delivery ? `${translate('app.delivery.one')} · ${delivery.place_name}` : ''}</>;
};

export const DeliveryShow = () => (
  <Show
    title={<Title />}
    actions={<TopToolbar />}
    {...stayOnError}
    error={<NotFoundOrError what="app.delivery.one" />}
    queryOptions={{
      ...stayOnError.queryOptions,
      refetchInterval: (query) => {
        const status = (query.state.data as Delivery | undefined)?.status;
        return status === 'pending' || status === 'queued' ? 2000 : false;
      },
    }}
  >
    <DeliveryDetail />
  </Show>
);
