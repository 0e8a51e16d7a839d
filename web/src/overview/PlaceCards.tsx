import {
  Box,
  Button,
  Card,
  CardActions,
  CardContent,
  Chip,
  Link as MuiLink,
  Stack,
  Typography,
} from '@mui/material';
import { useTranslate } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { EndpointHealthAlert } from '../deliveries/EndpointHealth';
import type { OverviewPlace } from '../types';

/** A gym account's places: today's visits, the webhook's health, and the way into each place's tabs. */
export const PlaceCards = ({ places }: { places: OverviewPlace[] }) => {
  const translate = useTranslate();
  return (
    <Box
      sx={{
        display: 'grid',
        gap: 2,
        gridTemplateColumns: { xs: '1fr', md: places.length > 1 ? '1fr 1fr' : '1fr' },
      }}
    >
      {places.map((place) => {
        const base = `/places/${encodeURIComponent(place.id)}/show`;
        return (
          <Card key={place.id} component="section" aria-label={place.name} variant="outlined">
            <CardContent>
              <Stack
                direction="row"
                spacing={1}
                sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1, mb: 1 }}
              >
                <Typography variant="h6" component="h3" sx={{ mr: 1 }}>
                  <MuiLink component={RouterLink} to={base} underline="hover" color="inherit">
                    {place.name}
                  </MuiLink>
                </Typography>
                <Chip
                  size="small"
                  label={`${translate('app.places.code')}: ${place.code}`}
                  sx={{ fontFamily: 'monospace' }}
                />
                {!place.active && <Chip size="small" color="error" label={translate('app.state.inactive')} />}
              </Stack>
              <Typography variant="h4" component="p" sx={{ fontWeight: 500 }}>
                {place.visits_today}
              </Typography>
              <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
                {translate('app.overview.visits_today_at', { smart_count: place.visits_today })}
              </Typography>
              {place.webhook ? (
                <EndpointHealthAlert state={place.webhook.delivery_state} active={place.webhook.active} />
              ) : (
                <Typography variant="body2" color="text.secondary">
                  {translate('app.overview.no_webhook')}
                </Typography>
              )}
            </CardContent>
            <CardActions sx={{ flexWrap: 'wrap', gap: 1 }}>
              <Button component={RouterLink} to={base} size="small">
                {translate('app.overview.open_place')}
              </Button>
              <Button component={RouterLink} to={`${base}/webhook`} size="small">
                {translate('app.places.tabs.webhook')}
              </Button>
              <Button component={RouterLink} to={`${base}/app-check-ins`} size="small">
                {translate('app.places.tabs.app_checkins')}
              </Button>
            </CardActions>
          </Card>
        );
      })}
    </Box>
  );
};
