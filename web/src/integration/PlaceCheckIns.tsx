import { Card } from '@mui/material';
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
import { CodeField, CpfField, WhenField } from '../common/fields';
import { formatCpf, formatDateTime } from '../common/format';
import { ListError } from '../common/ListError';
import { useSmall } from '../common/useSmall';
import type { Place } from '../types';

const Visits = () => {
  const small = useSmall();
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const { error } = useListContext();
  if (error) return <ListError />;
  const empty = <EmptyState title="app.checkins.none" hint="app.checkins.none_hint_place" />;
  return (
    <>
      {small ? (
        <SimpleList
          linkType={false}
          empty={empty}
          primaryText={(record) => formatDateTime(record.created_at, locale)}
          secondaryText={(record) =>
            `${translate('app.checkins.code')}: ${record.beneficiary_code} · CPF ${formatCpf(record.cpf)}`
          }
          tertiaryText={(record) => record.plan_code ?? ''}
        />
      ) : (
        <DataTable bulkActionButtons={false} rowClick={false} empty={empty}>
          <DataTable.Col source="created_at" label="app.checkins.when" disableSort>
            <WhenField source="created_at" />
          </DataTable.Col>
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
      <Pagination rowsPerPageOptions={[]} />
    </>
  );
};

/** Visits recorded at the place, newest first (the place's own route, 50 a page). */
export const PlaceCheckIns = () => {
  const place = useRecordContext<Place>();
  if (!place) return null;
  return (
    <Card variant="outlined" sx={{ maxWidth: 960 }}>
      <ListBase
        resource="place-visits"
        filter={{ place_id: place.id }}
        perPage={50}
        disableSyncWithLocation
        storeKey={false}
        queryOptions={{ onError: () => undefined }}
      >
        <Visits />
      </ListBase>
    </Card>
  );
};
