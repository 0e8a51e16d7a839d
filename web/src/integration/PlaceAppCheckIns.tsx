import { Card, Chip, Stack, ToggleButton, ToggleButtonGroup, Typography } from '@mui/material';
import { useEffect, useState } from 'react';
import {
  DataTable,
  ListBase,
  Pagination,
  SimpleList,
  useListContext,
  useLocaleState,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { EmptyState } from '../common/EmptyState';
import { CodeField, WhenField } from '../common/fields';
import { formatDateTime } from '../common/format';
import { ListError } from '../common/ListError';
import { useSmall } from '../common/useSmall';
import type { Place } from '../types';

const STATUSES = ['pending', 'validated', 'expired', 'cancelled'] as const;
/** The desk sees a member's new check-in within this long, without reloading. */
export const APP_CHECK_INS_REFRESH_MS = 5_000;

const STATUS_COLOR = {
  pending: 'warning',
  validated: 'success',
  expired: 'default',
  cancelled: 'default',
} as const;

export const StatusChip = ({ status, spaced = false }: { status: string; spaced?: boolean }) => {
  const translate = useTranslate();
  return (
    <Chip
      size="small"
      sx={spaced ? { ml: 1 } : undefined}
      variant={status === 'pending' || status === 'validated' ? 'filled' : 'outlined'}
      color={STATUS_COLOR[status as keyof typeof STATUS_COLOR] ?? 'default'}
      label={translate(`app.app_checkins.status.${status}`, { _: status })}
    />
  );
};

const StatusField = (_props: { source?: string; label?: string }) => {
  const record = useRecordContext();
  return record ? <StatusChip status={String(record.status)} /> : null;
};

/** The desk token, only while the check-in can still be confirmed. */
const TokenField = (_props: { source?: string; label?: string }) => {
  const record = useRecordContext();
  if (!record?.token) return null;
  return (
    <Typography component="span" variant="body2" sx={{ fontFamily: 'monospace', letterSpacing: 2 }}>
      {String(record.token)}
    </Typography>
  );
};

/** Says the list follows new check-ins by itself, and when it last looked. */
const LiveNote = () => {
  const { data, isFetching } = useListContext();
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const [dataUpdatedAt, setDataUpdatedAt] = useState<number | null>(null);
  useEffect(() => {
    if (!isFetching && data) setDataUpdatedAt(Date.now());
  }, [data, isFetching]);
  return (
    <Typography variant="caption" color="text.secondary" sx={{ display: 'block', px: 2, pt: 1 }}>
      {translate('app.app_checkins.live', {
        when: dataUpdatedAt ? new Date(dataUpdatedAt).toLocaleTimeString(locale) : '—',
      })}
    </Typography>
  );
};

const CheckIns = () => {
  const { error } = useListContext();
  const small = useSmall();
  const translate = useTranslate();
  const [locale] = useLocaleState();
  if (error) return <ListError />;
  const empty = <EmptyState title="app.app_checkins.none" hint="app.app_checkins.none_hint" />;
  if (small) {
    return (
      <>
        <SimpleList
          linkType={false}
          empty={empty}
          primaryText={(record) => `${record.beneficiary_name ?? ''} · ${record.beneficiary_code}`}
          secondaryText={(record) =>
            `${formatDateTime(record.started_at, locale)}${record.token ? ` · ${translate('app.app_checkins.token')} ${record.token}` : ''}`
          }
          tertiaryText={(record) => <StatusChip status={String(record.status)} spaced />}
        />
        <Pagination rowsPerPageOptions={[]} />
      </>
    );
  }
  return (
    <>
      <DataTable bulkActionButtons={false} rowClick={false} empty={empty}>
        <DataTable.Col source="started_at" label="app.app_checkins.started_at" disableSort>
          <WhenField source="started_at" />
        </DataTable.Col>
        <DataTable.Col source="status" label="app.app_checkins.status_label" disableSort>
          <StatusField />
        </DataTable.Col>
        <DataTable.Col source="beneficiary_name" label="app.app_checkins.member" disableSort />
        <DataTable.Col source="beneficiary_code" label="app.checkins.code" disableSort>
          <CodeField source="beneficiary_code" />
        </DataTable.Col>
        <DataTable.Col source="token" label="app.app_checkins.token" disableSort>
          <TokenField />
        </DataTable.Col>
        <DataTable.Col source="expires_at" label="app.app_checkins.expires_at" disableSort>
          <WhenField source="expires_at" />
        </DataTable.Col>
        <DataTable.Col source="validated_at" label="app.app_checkins.validated_at" disableSort>
          <WhenField source="validated_at" />
        </DataTable.Col>
      </DataTable>
      <Pagination rowsPerPageOptions={[]} />
    </>
  );
};

/**
 * Check-ins members started in the platform's app at this place, newest first: pending ones show the token
 * the desk can confirm with; filter by status.
 */
export const PlaceAppCheckIns = () => {
  const place = useRecordContext<Place>();
  const translate = useTranslate();
  const [status, setStatus] = useState<string>('');
  if (!place) return null;
  return (
    <Stack spacing={2} sx={{ maxWidth: 960 }}>
      <Typography variant="body2" color="text.secondary">
        {translate('app.app_checkins.intro')}
      </Typography>
      <ToggleButtonGroup
        size="small"
        exclusive
        value={status}
        onChange={(_event, value: string | null) => setStatus(value ?? '')}
        aria-label={translate('app.app_checkins.status_label')}
        sx={{ flexWrap: 'wrap' }}
      >
        <ToggleButton value="">{translate('app.app_checkins.all')}</ToggleButton>
        {STATUSES.map((value) => (
          <ToggleButton key={value} value={value}>
            {translate(`app.app_checkins.status.${value}`)}
          </ToggleButton>
        ))}
      </ToggleButtonGroup>
      <Card variant="outlined">
        <ListBase
          resource="place-app-check-ins"
          filter={{ place_id: place.id, status }}
          perPage={50}
          disableSyncWithLocation
          storeKey={false}
          queryOptions={{ onError: () => undefined, refetchInterval: APP_CHECK_INS_REFRESH_MS }}
        >
          <LiveNote />
          <CheckIns />
        </ListBase>
      </Card>
    </Stack>
  );
};
