import {
  CreateButton,
  DataTable,
  FunctionField,
  SelectInput,
  SimpleList,
  TopToolbar,
  useTranslate,
} from 'react-admin';
import { EmptyState } from '../common/EmptyState';
import { ActiveField, LinkField, WhenField } from '../common/fields';
import { ScreenList } from '../common/ScreenList';
import { Search } from '../common/Search';
import { useSmall } from '../common/useSmall';
import type { Account } from '../types';
import { ROLE_CHOICES } from './roles';

const filters = [
  <Search key="q" source="q" alwaysOn placeholder="app.accounts.search" />,
  <SelectInput
    key="role"
    source="role"
    label="app.accounts.role"
    choices={ROLE_CHOICES}
    alwaysOn
    sx={{ minWidth: 160 }}
  />,
];

const Actions = () => (
  <TopToolbar>
    <CreateButton label="app.accounts.invite" />
  </TopToolbar>
);

export const AccountList = () => {
  const small = useSmall();
  const translate = useTranslate();
  const scope = (account: Account) =>
    account.role !== 'gym'
      ? '—'
      : account.partner_id !== null
        ? translate('app.accounts.scope_partner_short')
        : translate('app.accounts.scope_places_short', { smart_count: account.place_ids.length });
  return (
    <ScreenList
      filters={filters}
      actions={<Actions />}
      empty={
        <EmptyState
          title="app.accounts.none"
          hint="app.accounts.none_hint"
          action={<CreateButton variant="contained" label="app.accounts.invite" />}
        />
      }
      perPage={25}
    >
      {small ? (
        <SimpleList<Account>
          linkType="edit"
          primaryText={(account) => account.name}
          secondaryText={(account) => `${account.email} · ${translate(`app.role.${account.role}`)}`}
          tertiaryText={() => <ActiveField />}
        />
      ) : (
        <DataTable rowClick="edit" bulkActionButtons={false}>
          <DataTable.Col source="email" label="app.accounts.email" disableSort>
            <LinkField source="email" to="edit" />
          </DataTable.Col>
          <DataTable.Col source="name" label="app.accounts.name" disableSort />
          <DataTable.Col source="role" label="app.accounts.role" disableSort>
            <FunctionField<Account> render={(account) => translate(`app.role.${account.role}`)} />
          </DataTable.Col>
          <DataTable.Col label="app.accounts.scope" disableSort>
            <FunctionField<Account> render={scope} />
          </DataTable.Col>
          <DataTable.Col source="active" label="app.accounts.state" disableSort>
            <ActiveField />
          </DataTable.Col>
          <DataTable.Col source="last_login_at" label="app.accounts.last_login_at" disableSort>
            <WhenField source="last_login_at" />
          </DataTable.Col>
        </DataTable>
      )}
    </ScreenList>
  );
};
