import {
  CreateButton,
  DataTable,
  SimpleList,
  TopToolbar,
  useCanAccess,
  useLocaleState,
  useTranslate,
} from 'react-admin';
import { EmptyState } from '../common/EmptyState';
import { LinkField, WhenField } from '../common/fields';
import { formatDateTime } from '../common/format';
import { ScreenList } from '../common/ScreenList';
import { Search } from '../common/Search';
import { useSmall } from '../common/useSmall';
import type { Partner } from '../types';

const Actions = () => {
  const { canAccess } = useCanAccess({ resource: 'partners', action: 'create' });
  return <TopToolbar>{canAccess && <CreateButton />}</TopToolbar>;
};

const Empty = () => {
  const { canAccess } = useCanAccess({ resource: 'partners', action: 'create' });
  return (
    <EmptyState
      title="app.partners.none"
      hint="app.partners.none_hint"
      action={canAccess ? <CreateButton variant="contained" /> : undefined}
    />
  );
};

export const PartnerList = () => {
  const small = useSmall();
  const translate = useTranslate();
  const [locale] = useLocaleState();
  return (
    <ScreenList
      filters={[<Search key="q" source="q" alwaysOn placeholder="app.partners.search" />]}
      actions={<Actions />}
      empty={<Empty />}
      perPage={25}
    >
      {small ? (
        <SimpleList<Partner>
          linkType="show"
          primaryText={(record) => record.name}
          secondaryText={(record) =>
            translate('app.partners.places_count', { smart_count: record.places_count ?? 0 })
          }
          tertiaryText={(record) => formatDateTime(record.created_at, locale)}
        />
      ) : (
        <DataTable rowClick="show" bulkActionButtons={false}>
          <DataTable.Col source="name" label="app.partners.name" disableSort>
            <LinkField source="name" />
          </DataTable.Col>
          <DataTable.NumberCol source="places_count" label="app.partners.places" disableSort />
          <DataTable.Col source="created_at" label="app.partners.created_at" disableSort>
            <WhenField source="created_at" />
          </DataTable.Col>
        </DataTable>
      )}
    </ScreenList>
  );
};
