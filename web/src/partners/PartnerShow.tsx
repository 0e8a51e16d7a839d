import {
  Box,
  Card,
  CardContent,
  Link as MuiLink,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { Show, useCanAccess, useDataProvider, useRecordContext, useRefresh, useTranslate } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { EmptyState } from '../common/EmptyState';
import { NotFoundOrError, stayOnError } from '../common/NotFoundOrError';
import type { ConsoleDataProvider } from '../dataProvider';
import { KeyPanel } from '../integration/KeyPanel';
import type { Partner } from '../types';

const Title = () => {
  const record = useRecordContext<Partner>();
  return <>{record?.name ?? ''}</>;
};

const PartnerDetail = () => {
  const partner = useRecordContext<Partner>();
  const translate = useTranslate();
  const refresh = useRefresh();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const { canAccess: canRotate } = useCanAccess({ resource: 'partners', action: 'rotate' });
  const { canAccess: canReveal } = useCanAccess({ resource: 'partner-key', action: 'reveal' });
  if (!partner) return null;
  const places = partner.places ?? [];
  return (
    <Stack spacing={2} sx={{ p: 2, maxWidth: 960 }}>
      <Typography variant="h5" component="h2">
        {partner.name}
      </Typography>
      <KeyPanel
        title="app.keys.partner_key"
        description="app.keys.partner_key_help"
        current={partner.partner_api_key}
        reveal={
          canReveal && partner.partner_api_key ? async () => partner.partner_api_key as string : undefined
        }
        rotate={
          canRotate
            ? () => dataProvider.rotatePartnerKey(partner.id).then((key) => key.partner_api_key)
            : undefined
        }
        rotateWarning="app.keys.rotate_partner_warning"
        onRotated={refresh}
      />
      <Card variant="outlined">
        <CardContent>
          <Typography variant="h6" component="h3">
            {translate('app.partners.places')}
          </Typography>
          {places.length === 0 ? (
            <EmptyState title="app.places.none" hint="app.partners.no_places_hint" />
          ) : (
            <Box sx={{ overflowX: 'auto' }}>
              <Table size="small" aria-label={translate('app.partners.places')}>
                <TableHead>
                  <TableRow>
                    <TableCell>{translate('app.places.name')}</TableCell>
                    <TableCell>{translate('app.places.code')}</TableCell>
                    <TableCell>{translate('app.places.state')}</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {places.map((place) => (
                    <TableRow key={place.id}>
                      <TableCell>
                        <MuiLink
                          component={RouterLink}
                          to={`/places/${encodeURIComponent(place.id)}/show`}
                          underline="hover"
                        >
                          {place.name}
                        </MuiLink>
                      </TableCell>
                      <TableCell sx={{ fontFamily: 'monospace' }}>{place.code}</TableCell>
                      <TableCell>
                        {translate(place.active ? 'app.state.active' : 'app.state.inactive')}
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </Box>
          )}
        </CardContent>
      </Card>
    </Stack>
  );
};

export const PartnerShow = () => (
  <Show title={<Title />} {...stayOnError} error={<NotFoundOrError what="app.partners.one" />}>
    <PartnerDetail />
  </Show>
);
