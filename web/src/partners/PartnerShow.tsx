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
import AddBusinessIcon from '@mui/icons-material/AddBusiness';
import { Button } from '@mui/material';
import {
  EditButton,
  Show,
  TopToolbar,
  useCanAccess,
  useDataProvider,
  useRecordContext,
  useRefresh,
  useTranslate,
} from 'react-admin';
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

/** The next step after creating a partner: its first place, with the partner already chosen. */
const CreatePlaceButton = ({ variant = 'text' }: { variant?: 'text' | 'contained' }) => {
  const partner = useRecordContext<Partner>();
  const translate = useTranslate();
  const { canAccess } = useCanAccess({ resource: 'places', action: 'create' });
  if (!partner || !canAccess) return null;
  const source = encodeURIComponent(JSON.stringify({ partner_id: partner.id }));
  return (
    <Button
      component={RouterLink}
      to={`/places/create?source=${source}`}
      variant={variant}
      size={variant === 'contained' ? 'medium' : 'small'}
      startIcon={<AddBusinessIcon />}
    >
      {translate('app.partners.create_place')}
    </Button>
  );
};

const Actions = () => {
  const { canAccess } = useCanAccess({ resource: 'partners', action: 'edit' });
  return (
    <TopToolbar>
      <CreatePlaceButton />
      {canAccess && <EditButton label="app.partners.rename" />}
    </TopToolbar>
  );
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
            <EmptyState
              title="app.places.none"
              hint="app.partners.no_places_hint"
              action={<CreatePlaceButton variant="contained" />}
            />
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
  <Show
    title={<Title />}
    actions={<Actions />}
    {...stayOnError}
    error={<NotFoundOrError what="app.partners.one" />}
  >
    <PartnerDetail />
  </Show>
);
