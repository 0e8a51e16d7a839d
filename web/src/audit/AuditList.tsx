import { Box, Typography } from '@mui/material';
import {
  DataTable,
  DateInput,
  FunctionField,
  SimpleList,
  TextInput,
  useLocaleState,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { EmptyState } from '../common/EmptyState';
import { WhenField } from '../common/fields';
import { formatDateTime } from '../common/format';
import { ScreenList } from '../common/ScreenList';
import { useSmall } from '../common/useSmall';

interface AuditEntry {
  id: string | number;
  at: string;
  actor_type: 'account' | 'admin-token' | 'place';
  actor_id: string | null;
  actor_label: string | null;
  action: string;
  target_type: string | null;
  target_id: string | null;
  address: string | null;
  request_id: string | null;
  details: Record<string, unknown> | null;
}

const filters = [
  <TextInput key="actor" source="actor" label="app.audit.actor" alwaysOn />,
  <TextInput key="action" source="action" label="app.audit.action" alwaysOn helperText={false} />,
  <TextInput key="target_type" source="target_type" label="app.audit.target_type" alwaysOn />,
  <TextInput key="target_id" source="target_id" label="app.audit.target_id" alwaysOn />,
  <DateInput key="from" source="from" label="app.audit.from" alwaysOn />,
  <DateInput key="to" source="to" label="app.audit.to" alwaysOn />,
];

const Actor = () => {
  const entry = useRecordContext<AuditEntry>();
  const translate = useTranslate();
  if (!entry) return null;
  return (
    <Box>
      <Typography variant="body2">{entry.actor_label ?? entry.actor_id ?? '—'}</Typography>
      <Typography variant="caption" color="text.secondary">
        {translate(`app.audit.actor_type.${entry.actor_type}`, { _: entry.actor_type })}
      </Typography>
    </Box>
  );
};

/** Where the change came from: the address and the request id to look for in the logs. */
const Origin = () => {
  const entry = useRecordContext<AuditEntry>();
  const translate = useTranslate();
  if (!entry) return null;
  return (
    <Box>
      <Typography variant="body2">{entry.address ?? '—'}</Typography>
      {entry.request_id && (
        <Typography
          variant="caption"
          color="text.secondary"
          component="p"
          aria-label={translate('app.audit.request_id')}
          sx={{ fontFamily: 'monospace', fontSize: '0.7rem', overflowWrap: 'anywhere', maxWidth: 180 }}
        >
          {entry.request_id}
        </Typography>
      )}
    </Box>
  );
};

/** What changed, as "field: value" lines rather than raw JSON. */
const Details = () => {
  const entry = useRecordContext<AuditEntry>();
  if (!entry?.details || Object.keys(entry.details).length === 0) return null;
  return (
    <Box component="ul" sx={{ m: 0, pl: 2 }}>
      {Object.entries(entry.details).map(([key, value]) => (
        <Typography component="li" variant="caption" key={key} sx={{ overflowWrap: 'anywhere' }}>
          {key}: {typeof value === 'object' ? JSON.stringify(value) : String(value)}
        </Typography>
      ))}
    </Box>
  );
};

export const AuditList = () => {
  const small = useSmall();
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const target = (entry: AuditEntry) => [entry.target_type, entry.target_id].filter(Boolean).join(' ') || '—';
  const action = (entry: AuditEntry) => translate(`app.audit.actions.${entry.action}`, { _: entry.action });
  return (
    <ScreenList
      filters={filters}
      actions={false}
      empty={<EmptyState title="app.audit.none" hint="app.audit.none_hint" />}
      perPage={50}
    >
      {small ? (
        <SimpleList<AuditEntry>
          linkType={false}
          primaryText={action}
          secondaryText={(entry) =>
            `${entry.actor_label ?? entry.actor_type} · ${formatDateTime(entry.at, locale)}`
          }
          tertiaryText={target}
        />
      ) : (
        <DataTable bulkActionButtons={false} rowClick={false}>
          <DataTable.Col source="at" label="app.audit.at" disableSort>
            <WhenField source="at" />
          </DataTable.Col>
          <DataTable.Col source="actor_label" label="app.audit.actor" disableSort>
            <Actor />
          </DataTable.Col>
          <DataTable.Col source="action" label="app.audit.action" disableSort>
            <FunctionField<AuditEntry> render={action} />
          </DataTable.Col>
          <DataTable.Col source="target_id" label="app.audit.target" disableSort>
            <FunctionField<AuditEntry> render={target} />
          </DataTable.Col>
          <DataTable.Col
            source="details"
            label="app.audit.details"
            disableSort
            cellSx={() => ({ minWidth: 240, maxWidth: 360 })}
          >
            <Details />
          </DataTable.Col>
          <DataTable.Col source="address" label="app.audit.origin" disableSort>
            <Origin />
          </DataTable.Col>
        </DataTable>
      )}
    </ScreenList>
  );
};
