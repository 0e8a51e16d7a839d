import type { ReactElement } from 'react';
import { DataTable, SimpleList, useListContext, useLocaleState, useTranslate } from 'react-admin';
import { CodeField, CpfField, WhenField } from '../common/fields';
import { formatCpf, formatDateTime } from '../common/format';
import { useSmall } from '../common/useSmall';

/** Visits as a table (a list on a phone): when, where, who (code and CPF) and with which plan. */
export const VisitTable = ({ showPlace = true, empty }: { showPlace?: boolean; empty?: ReactElement }) => {
  const small = useSmall();
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const { data } = useListContext();
  // The gym system's own code for the member there (Wellhub's custom_code), shown when a visit has one.
  const customCodes = data?.some((visit) => visit.custom_code !== undefined && visit.custom_code !== null);
  if (small) {
    return (
      <SimpleList
        linkType={false}
        empty={empty}
        primaryText={(record) => (showPlace ? record.place_name : formatDateTime(record.created_at, locale))}
        secondaryText={(record) =>
          `${showPlace ? `${formatDateTime(record.created_at, locale)} · ` : ''}${translate('app.checkins.code')}: ${record.beneficiary_code}`
        }
        tertiaryText={(record) => `CPF ${formatCpf(record.cpf)}`}
      />
    );
  }
  return (
    <DataTable bulkActionButtons={false} rowClick={false} empty={empty}>
      <DataTable.Col source="created_at" label="app.checkins.when" disableSort>
        <WhenField source="created_at" />
      </DataTable.Col>
      {showPlace && <DataTable.Col source="place_name" label="app.checkins.place" disableSort />}
      <DataTable.Col source="beneficiary_code" label="app.checkins.code" disableSort>
        <CodeField source="beneficiary_code" />
      </DataTable.Col>
      <DataTable.Col source="cpf" label="app.checkins.cpf" disableSort>
        <CpfField source="cpf" />
      </DataTable.Col>
      <DataTable.Col source="plan_code" label="app.checkins.plan" disableSort>
        <CodeField source="plan_code" />
      </DataTable.Col>
      {customCodes && (
        <DataTable.Col source="custom_code" label="app.checkins.custom_code" disableSort>
          <CodeField source="custom_code" />
        </DataTable.Col>
      )}
    </DataTable>
  );
};
