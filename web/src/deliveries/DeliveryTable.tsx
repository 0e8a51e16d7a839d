import { Typography } from '@mui/material';
import {
  DataTable,
  SimpleList,
  useListContext,
  useLocaleState,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { EmptyState } from '../common/EmptyState';
import { DeliveryStatusChip, DeliveryStatusField, LinkField, WhenField } from '../common/fields';
import { formatDateTime } from '../common/format';
import { useSmall } from '../common/useSmall';
import type { Delivery } from '../types';

const EventField = () => {
  const translate = useTranslate();
  return (
    <LinkField source="event_type" render={(type) => translate(`app.delivery.event.${type}`, { _: type })} />
  );
};

/** The receiver's last answer in a few words: its HTTP status, or why there was none. */
export const LastAnswerField = () => {
  const record = useRecordContext<Delivery>();
  const translate = useTranslate();
  if (!record) return null;
  if (record.last_status_code) return <>HTTP {record.last_status_code}</>;
  if (record.last_error)
    return (
      <Typography component="span" variant="body2" color="error" sx={{ wordBreak: 'break-word' }}>
        {record.last_error}
      </Typography>
    );
  return <>{translate('app.delivery.no_answer_yet')}</>;
};

const Empty = () => {
  const { filterValues } = useListContext();
  return (
    <EmptyState
      title={
        Object.keys(filterValues).some((key) => key !== 'place_id')
          ? 'app.delivery.none_filtered'
          : 'app.delivery.none'
      }
      hint="app.delivery.none_hint"
    />
  );
};

/** Deliveries as a table (a list of cards on a phone); a row opens the delivery with every attempt. */
export const DeliveryTable = ({ showPlace = true }: { showPlace?: boolean }) => {
  const small = useSmall();
  const translate = useTranslate();
  const [locale] = useLocaleState();
  if (small) {
    return (
      <SimpleList<Delivery>
        resource="deliveries"
        linkType="show"
        primaryText={(record) =>
          translate(`app.delivery.event.${record.event_type}`, { _: record.event_type })
        }
        secondaryText={(record) =>
          `${showPlace ? `${record.place_name} · ` : ''}${formatDateTime(record.created_at, locale)}`
        }
        tertiaryText={(record) => <DeliveryStatusChip status={record.status} />}
        empty={<Empty />}
      />
    );
  }
  return (
    <DataTable resource="deliveries" rowClick="show" bulkActionButtons={false} empty={<Empty />}>
      <DataTable.Col source="created_at" label="app.delivery.created_at" disableSort>
        <WhenField source="created_at" />
      </DataTable.Col>
      {showPlace && <DataTable.Col source="place_name" label="app.delivery.place" disableSort />}
      <DataTable.Col source="event_type" label="app.delivery.event_type" disableSort>
        <EventField />
      </DataTable.Col>
      <DataTable.Col source="status" label="app.delivery.status_label" disableSort>
        <DeliveryStatusField />
      </DataTable.Col>
      <DataTable.NumberCol source="attempts" label="app.delivery.attempts" disableSort />
      <DataTable.Col source="last_status_code" label="app.delivery.last_answer" disableSort>
        <LastAnswerField />
      </DataTable.Col>
      <DataTable.Col
        source="url"
        label="app.delivery.url"
        disableSort
        cellSx={() => ({ maxWidth: 280, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' })}
      />
    </DataTable>
  );
};
