import {
  AutocompleteInput,
  CreateButton,
  DataTable,
  ReferenceInput,
  SimpleList,
  TopToolbar,
  useCanAccess,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { Chip } from '@mui/material';
import { EmptyState } from '../common/EmptyState';
import { ActiveField, CodeField, LinkField } from '../common/fields';
import { ScreenList } from '../common/ScreenList';
import { Search } from '../common/Search';
import { useSmall } from '../common/useSmall';
import type { Place } from '../types';

const WebhookField = () => {
  const record = useRecordContext<Place>();
  const translate = useTranslate();
  if (!record) return null;
  return record.webhook_subscribed ? (
    <Chip size="small" color="info" label={translate('app.places.webhook_on')} />
  ) : (
    <Chip size="small" variant="outlined" label={translate('app.places.webhook_off')} />
  );
};

const Actions = () => {
  const { canAccess } = useCanAccess({ resource: 'places', action: 'create' });
  return <TopToolbar>{canAccess && <CreateButton />}</TopToolbar>;
};

const Empty = () => {
  const { canAccess } = useCanAccess({ resource: 'places', action: 'create' });
  return (
    <EmptyState
      title="app.places.none"
      hint={canAccess ? 'app.places.none_hint' : 'app.places.none_hint_gym'}
      action={canAccess ? <CreateButton variant="contained" /> : undefined}
    />
  );
};

export const PlaceList = () => {
  const small = useSmall();
  const { canAccess: byPartner } = useCanAccess({ resource: 'partners', action: 'list' });
  const filters = [
    <Search key="q" source="q" alwaysOn placeholder="app.places.search" />,
    ...(byPartner
      ? [
          <ReferenceInput key="partner" source="partner_id" reference="partners" alwaysOn>
            <AutocompleteInput
              label="app.places.partner"
              optionText="name"
              filterToQuery={(q) => ({ q })}
              sx={{ minWidth: 220 }}
            />
          </ReferenceInput>,
        ]
      : []),
  ];
  return (
    <ScreenList
      filters={filters}
      actions={<Actions />}
      empty={<Empty />}
      perPage={25}
      sort={{ field: 'name', order: 'ASC' }}
    >
      {small ? (
        <SimpleList<Place>
          linkType="show"
          primaryText={(record) => record.name}
          secondaryText={(record) => [record.code, record.partner_name].filter(Boolean).join(' · ')}
          tertiaryText={() => <ActiveField />}
        />
      ) : (
        <DataTable rowClick="show" bulkActionButtons={false}>
          <DataTable.Col source="name" label="app.places.name" disableSort>
            <LinkField source="name" />
          </DataTable.Col>
          <DataTable.Col source="code" label="app.places.code" disableSort>
            <CodeField source="code" />
          </DataTable.Col>
          <DataTable.Col source="partner_name" label="app.places.partner" disableSort />
          <DataTable.Col source="active" label="app.places.state" disableSort>
            <ActiveField />
          </DataTable.Col>
          <DataTable.Col source="webhook_subscribed" label="app.places.webhook" disableSort>
            <WebhookField />
          </DataTable.Col>
        </DataTable>
      )}
    </ScreenList>
  );
};
