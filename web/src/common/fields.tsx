import { Chip, Link as MuiLink, Typography } from '@mui/material';
import {
  useCreatePath,
  useLocaleState,
  useRecordContext,
  useResourceContext,
  useTranslate,
} from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
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

/**
 * A row's main text as a real link, so the keyboard reaches every record (a clickable table row is not
 * focusable); the row stays clickable for the mouse.
 */
export const LinkField = ({
  source,
  to = 'show',
  render,
}: FieldProps & { to?: 'show' | 'edit'; render?: (value: string) => string }) => {
  const record = useRecordContext();
  const resource = useResourceContext();
  const createPath = useCreatePath();
  if (!record) return null;
  const value = String(record[source] ?? '');
  return (
    <MuiLink
      component={RouterLink}
      to={createPath({ resource, id: record.id, type: to })}
      onClick={(event: React.MouseEvent) => event.stopPropagation()}
      underline="hover"
      sx={{ fontWeight: 500 }}
    >
      {render ? render(value) : value}
    </MuiLink>
  );
};
