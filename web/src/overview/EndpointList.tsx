import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import {
  Box,
  Card,
  CardContent,
  Link as MuiLink,
  List,
  ListItem,
  Skeleton,
  Stack,
  Typography,
} from '@mui/material';
import { useId } from 'react';
import { useTranslate } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { EndpointHealthChip, useHealthWords } from '../deliveries/EndpointHealth';
import type { EndpointHealth } from '../types';

/** The receivers in trouble, most failing first, each linked to its place's webhook and deliveries. */
export const EndpointList = ({
  endpoints,
  loading,
}: {
  endpoints: EndpointHealth[] | undefined;
  loading: boolean;
}) => {
  const translate = useTranslate();
  const words = useHealthWords();
  const headingId = useId();
  return (
    <Card component="section" aria-labelledby={headingId} variant="outlined" sx={{ height: '100%' }}>
      <CardContent>
        <Typography id={headingId} variant="h6" component="h3">
          {translate('app.overview.endpoints_title')}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {translate('app.overview.endpoints_intro')}
        </Typography>
        {loading && <Skeleton variant="rounded" height={64} sx={{ mt: 1 }} />}
        {!loading && endpoints?.length === 0 && (
          <Stack
            direction="row"
            spacing={1}
            sx={{ mt: 2, alignItems: 'center', color: 'success.main' }}
            role="status"
          >
            <CheckCircleIcon aria-hidden />
            <Typography variant="body1">{translate('app.overview.endpoints_none')}</Typography>
          </Stack>
        )}
        {!loading && endpoints && endpoints.length > 0 && (
          <List dense aria-labelledby={headingId}>
            {endpoints.map((endpoint) => {
              const { detail } = words(endpoint.delivery_state, endpoint.active);
              return (
                <ListItem key={endpoint.webhook_id} divider sx={{ display: 'block', px: 0 }}>
                  <Stack
                    direction="row"
                    spacing={1}
                    sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 0.5 }}
                  >
                    <MuiLink
                      component={RouterLink}
                      to={`/places/${encodeURIComponent(endpoint.place_id)}/show/webhook`}
                      underline="hover"
                      sx={{ fontWeight: 500 }}
                    >
                      {endpoint.place_name}
                    </MuiLink>
                    <EndpointHealthChip state={endpoint.delivery_state} active={endpoint.active} />
                  </Stack>
                  <Typography variant="body2" color="text.secondary" sx={{ wordBreak: 'break-all' }}>
                    {endpoint.url}
                  </Typography>
                  <Typography variant="body2">{detail}</Typography>
                  <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap' }}>
                    <Typography variant="caption" color="text.secondary">
                      {translate('app.overview.endpoint_counts', {
                        deliveries: endpoint.deliveries,
                        failed: endpoint.failed,
                        retrying: endpoint.retrying,
                        rate: Math.round(endpoint.failure_rate * 100),
                      })}
                    </Typography>
                    <MuiLink
                      component={RouterLink}
                      to={`/deliveries?filter=${encodeURIComponent(JSON.stringify({ place_id: endpoint.place_id, failing: true }))}`}
                      variant="caption"
                    >
                      {translate('app.overview.see_failing_deliveries')}
                    </MuiLink>
                  </Box>
                </ListItem>
              );
            })}
          </List>
        )}
      </CardContent>
    </Card>
  );
};
