import { Chip, Typography } from '@mui/material';
import { useLocaleState, useRecordContext, useTranslate } from 'react-admin';
import { formatCpf, formatDate, formatDateTime } from './format';

interface FieldProps {
  source: string;
  label?: string;
}

export const DateTimeText = ({ value }: { value: string | null | undefined }) => {
  const [locale] = useLocaleState();
  return <>{formatDateTime(value, locale)}</>;
};

export const WhenField = ({ source }: FieldProps) => {
  const record = useRecordContext();
  const [locale] = useLocaleState();
  const value = record?.[source] as string | null | undefined;
  return (
    <Typography component="span" variant="body2" sx={{ whiteSpace: 'nowrap' }}>
      {formatDateTime(value, locale)}
    </Typography>
  );
};

export const DayField = ({ source }: FieldProps) => {
  const record = useRecordContext();
  const [locale] = useLocaleState();
  return (
    <Typography component="span" variant="body2">
      {formatDate(record?.[source] as string | null, locale)}
    </Typography>
  );
};

export const CpfField = ({ source }: FieldProps) => {
  const record = useRecordContext();
  return (
    <Typography component="span" variant="body2" sx={{ fontFamily: 'monospace', whiteSpace: 'nowrap' }}>
      {formatCpf(record?.[source] as string)}
    </Typography>
  );
};

export const CodeField = ({ source }: FieldProps) => {
  const record = useRecordContext();
  const value = record?.[source];
  return (
    <Typography component="span" variant="body2" sx={{ fontFamily: 'monospace' }}>
      {value === null || value === undefined ? '' : String(value)}
    </Typography>
  );
};

/** Active / inactive as words, not as a check mark only. */
export const ActiveField = ({ source = 'active' }: Partial<FieldProps>) => {
  const record = useRecordContext();
  const translate = useTranslate();
  if (!record) return null;
  const active = Boolean(record[source]);
  return (
    <Chip
      size="small"
      variant={active ? 'filled' : 'outlined'}
      color={active ? 'success' : 'default'}
      label={translate(active ? 'app.state.active' : 'app.state.inactive')}
    />
  );
};

const STATUS_COLOR = {
  delivered: 'success',
  failed: 'error',
  pending: 'warning',
  queued: 'info',
} as const;

export const DeliveryStatusChip = ({ status }: { status: string }) => {
  const translate = useTranslate();
  return (
    <Chip
      size="small"
      color={STATUS_COLOR[status as keyof typeof STATUS_COLOR] ?? 'default'}
      label={translate(`app.delivery.status.${status}`, { _: status })}
    />
  );
};

export const DeliveryStatusField = (_props: Partial<FieldProps>) => {
  const record = useRecordContext();
  return record ? <DeliveryStatusChip status={String(record.status)} /> : null;
};
