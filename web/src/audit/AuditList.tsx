import { Box, Typography } from '@mui/material';
import { useWatch } from 'react-hook-form';
import {
  AutocompleteInput,
  DataTable,
  DateInput,
  FunctionField,
  ReferenceInput,
  SelectInput,
  SimpleList,
  TextInput,
  TopToolbar,
  useLocaleState,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { EmptyState } from '../common/EmptyState';
import { ExportButton } from '../common/ExportButton';
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
  actor_name: string | null;
  action: string;
  target_type: string | null;
  target_id: string | null;
  target_label: string | null;
  place_name: string | null;
  address: string | null;
  request_id: string | null;
  details: Record<string, unknown> | null;
}

/** Every action the service audits, in the order people look for them. */
export const AUDIT_ACTIONS = [
  'session.login',
  'session.logout',
  'key.reveal',
  'place.create',
  'place.update',
  'place.key.rotate',
  'partner.create',
  'partner.update',
  'partner.key.rotate',
  'plan.create',
  'plan.delete',
  'benefit_plan.create',
  'benefit_plan.update',
  'beneficiary.create',
  'beneficiary.update',
  'beneficiary.bulk_import',
  'webhook.create',
  'webhook.update',
  'webhook.delete',
  'webhook.test',
  'delivery.redeliver',
  'account.invite',
  'account.update',
  'account.disable',
  'account.enable',
  'account.password_link',
  'account.password.set',
];

const TARGET_TYPES = [
  'place',
  'partner',
  'plan',
  'benefit_plan',
  'beneficiary',
  'webhook',
  'delivery',
  'account',
];

/** The target filter: a choice of places, partners or accounts by name; a code for the other kinds. */
const TargetInput = (_props: { source: string; alwaysOn?: boolean }) => {
  const type = useWatch({ name: 'target_type' }) as string | undefined;
  const reference = { place: 'places', partner: 'partners', account: 'accounts' }[type ?? ''];
  if (reference) {
    return (
      <ReferenceInput source="target_id" reference={reference}>
        <AutocompleteInput
          label={`app.audit.target_of.${type}`}
          optionText={(record: { name?: string; email?: string }) => record.name ?? record.email ?? ''}
          filterToQuery={(q) => ({ q })}
          sx={{ minWidth: 240 }}
        />
      </ReferenceInput>
    );
  }
  if (!type) return null;
  return <TextInput source="target_id" label="app.audit.target_code" helperText={false} />;
};

const useFilters = () => {
  const translate = useTranslate();
  return [
    <ReferenceInput key="actor" source="actor" reference="accounts" alwaysOn>
      <AutocompleteInput
        label="app.audit.actor"
        optionText={(account: { name: string; email: string }) => `${account.name} (${account.email})`}
        filterToQuery={(q) => ({ q })}
        sx={{ minWidth: 240 }}
      />
    </ReferenceInput>,
    <SelectInput
      key="action"
      source="action"
      label="app.audit.action"
      alwaysOn
      choices={AUDIT_ACTIONS.map((action) => ({
        id: action,
        name: translate(`app.audit.actions.${action}`),
      }))}
      translateChoice={false}
      sx={{ minWidth: 220 }}
    />,
    <SelectInput
      key="target_type"
      source="target_type"
      label="app.audit.target_type"
      alwaysOn
      choices={TARGET_TYPES.map((type) => ({ id: type, name: `app.audit.target_types.${type}` }))}
      sx={{ minWidth: 180 }}
    />,
    <TargetInput key="target_id" source="target_id" alwaysOn />,
    <DateInput key="from" source="from" label="app.audit.from" alwaysOn />,
    <DateInput key="to" source="to" label="app.audit.to" alwaysOn />,
  ];
};

const Actor = () => {
  const entry = useRecordContext<AuditEntry>();
  const translate = useTranslate();
  if (!entry) return null;
  return (
    <Box>
      <Typography variant="body2">{entry.actor_name ?? entry.actor_label ?? '—'}</Typography>
      <Typography variant="caption" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
        {translate(`app.audit.actor_type.${entry.actor_type}`, { _: entry.actor_type })}
        {entry.actor_name && entry.actor_label && entry.actor_label !== entry.actor_name
          ? ` · ${entry.actor_label}`
          : ''}
      </Typography>
    </Box>
  );
};

/** What the entry changed, named: "Place: Academia Centro", a code where that is the name (beneficiaries). */
function useTargetText() {
  const translate = useTranslate();
  return (entry: AuditEntry) => {
    if (!entry.target_type) return '—';
    const kind = translate(`app.audit.target_types.${entry.target_type}`, { _: entry.target_type });
    const name = entry.target_label ?? entry.target_id;
    return name ? `${kind}: ${name}` : kind;
  };
}

const Target = () => {
  const entry = useRecordContext<AuditEntry>();
  const text = useTargetText();
  if (!entry) return null;
  return (
    <Box>
      <Typography variant="body2">{text(entry)}</Typography>
      {entry.place_name && entry.target_type !== 'place' && (
        <Typography variant="caption" color="text.secondary">
          {entry.place_name}
        </Typography>
      )}
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

/** What changed, as "field: value" lines; the place id a detail names is shown by its place's name. */
const Details = () => {
  const entry = useRecordContext<AuditEntry>();
  const translate = useTranslate();
  if (!entry?.details || Object.keys(entry.details).length === 0) return null;
  return (
    <Box component="ul" sx={{ m: 0, pl: 2 }}>
      {Object.entries(entry.details).map(([key, value]) => (
        <Typography component="li" variant="caption" key={key} sx={{ overflowWrap: 'anywhere' }}>
          {key === 'place_id' && entry.place_name
            ? `${translate('app.audit.target_types.place')}: ${entry.place_name}`
            : `${key}: ${typeof value === 'object' ? JSON.stringify(value) : String(value)}`}
        </Typography>
      ))}
    </Box>
  );
};

export const AuditList = () => {
  const small = useSmall();
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const filters = useFilters();
  const target = useTargetText();
  const action = (entry: AuditEntry) => translate(`app.audit.actions.${entry.action}`, { _: entry.action });
  return (
    <ScreenList
      filters={filters}
      actions={
        <TopToolbar>
          <ExportButton />
        </TopToolbar>
      }
      empty={<EmptyState title="app.audit.none" hint="app.audit.none_hint" />}
      perPage={50}
    >
      {small ? (
        <SimpleList<AuditEntry>
          linkType={false}
          primaryText={action}
          secondaryText={(entry) =>
            `${entry.actor_name ?? entry.actor_label ?? entry.actor_type} · ${formatDateTime(entry.at, locale)}`
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
            <Target />
          </DataTable.Col>
          <DataTable.Col
            source="details"
            label="app.audit.details"
            disableSort
            cellSx={() => ({ minWidth: 220, maxWidth: 340 })}
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
