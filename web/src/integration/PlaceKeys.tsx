import { Alert, Stack, Typography } from '@mui/material';
import { useCanAccess, useDataProvider, useRecordContext, useRefresh, useTranslate } from 'react-admin';
import type { ConsoleDataProvider } from '../dataProvider';
import type { Place } from '../types';
import { KeyPanel } from './KeyPanel';

/** The keys of a place (and of its partner, for chain accounts and operators). */
export const PlaceKeys = () => {
  const place = useRecordContext<Place>();
  const translate = useTranslate();
  const refresh = useRefresh();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const { canAccess: canReveal } = useCanAccess({ resource: 'places', action: 'reveal', record: place });
  const { canAccess: canRotate } = useCanAccess({ resource: 'places', action: 'rotate', record: place });
  const { canAccess: partnerKey } = useCanAccess({ resource: 'partner-key', action: 'reveal' });
  const { canAccess: canRotatePartnerKey } = useCanAccess({ resource: 'partner-key', action: 'rotate' });
  if (!place) return null;

  return (
    <Stack spacing={2} sx={{ maxWidth: 760 }}>
      <Typography variant="body2" color="text.secondary">
        {translate('app.keys.intro', { code: place.code })}
      </Typography>
      {!place.active && <Alert severity="warning">{translate('app.places.inactive_warning')}</Alert>}
      <KeyPanel
        title="app.keys.place_key"
        description="app.keys.place_key_help"
        current={place.place_api_key}
        reveal={
          canReveal ? () => dataProvider.revealKeys(place.id).then((keys) => keys.place_api_key) : undefined
        }
        rotate={
          canRotate ? () => dataProvider.rotatePlaceKey(place.id).then((key) => key.place_api_key) : undefined
        }
        rotateWarning="app.keys.rotate_place_warning"
        rotateArgs={{ place: place.name }}
        onRotated={refresh}
      />
      {partnerKey && (
        <KeyPanel
          title="app.keys.partner_key"
          description="app.keys.partner_key_help"
          current={undefined}
          reveal={() =>
            dataProvider.revealKeys(place.id).then((keys) => {
              if (!keys.partner_api_key) throw new Error('app.error.forbidden');
              return keys.partner_api_key;
            })
          }
          rotate={
            canRotatePartnerKey
              ? () => dataProvider.rotatePartnerKey(place.partner_id).then((key) => key.partner_api_key)
              : undefined
          }
          rotateWarning="app.keys.rotate_partner_warning"
          onRotated={refresh}
        />
      )}
    </Stack>
  );
};
