import {
  AutocompleteInput,
  DataTable,
  DateInput,
  ReferenceInput,
  SimpleList,
  useLocaleState,
  useTranslate,
} from 'react-admin';
import { EmptyState } from '../common/EmptyState';
import { CodeField, CpfField, WhenField } from '../common/fields';
import { formatCpf, formatDateTime } from '../common/format';
import { ScreenList } from '../common/ScreenList';
import { useSmall } from '../common/useSmall';

const filters = [
  <ReferenceInput key="place" source="place_id" reference="places" alwaysOn>
    <AutocompleteInput
      label="app.checkins.place"
      optionText="name"
      filterToQuery={(q) => ({ q })}
      sx={{ minWidth: 240 }}
    />
  </ReferenceInput>,
  <DateInput key="from" source="from" label="app.checkins.from" alwaysOn />,
  <DateInput key="to" source="to" label="app.checkins.to" alwaysOn />,
];

/** Check-ins (visits) of every place, newest first. */
export const VisitList = () => {
  const small = useSmall();
  const translate = useTranslate();
  const [locale] = useLocaleState();
  return (
    <ScreenList
      filters={filters}
      actions={false}
      empty={<EmptyState title="app.checkins.none" hint="app.checkins.none_hint" />}
      perPage={50}
    >
      {small ? (
        <SimpleList
          linkType={false}
          primaryText={(record) => `${record.place_name}`}
          secondaryText={(record) =>
            `${formatDateTime(record.created_at, locale)} · ${translate('app.checkins.code')}: ${record.beneficiary_code}`
          }
          tertiaryText={(record) => formatCpf(record.cpf)}
        />
      ) : (
        <DataTable bulkActionButtons={false} rowClick={false}>
          <DataTable.Col source="created_at" label="app.checkins.when" disableSort>
            <WhenField source="created_at" />
          </DataTable.Col>
          <DataTable.Col source="place_name" label="app.checkins.place" disableSort />
          <DataTable.Col source="beneficiary_code" label="app.checkins.code" disableSort>
            <CodeField source="beneficiary_code" />
          </DataTable.Col>
          <DataTable.Col source="cpf" label="app.checkins.cpf" disableSort>
            <CpfField source="cpf" />
          </DataTable.Col>
          <DataTable.Col source="plan_code" label="app.checkins.plan" disableSort>
            <CodeField source="plan_code" />
          </DataTable.Col>
        </DataTable>
      )}
    </ScreenList>
  );
};
