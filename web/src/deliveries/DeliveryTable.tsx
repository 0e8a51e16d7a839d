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
import { LinkField, WhenField } from '../common/fields';
import { formatDateTime } from '../common/format';
import { useSmall } from '../common/useSmall';
import type { Delivery } from '../types';
import { DeliveryOutcomeChip, DeliveryOutcomeField } from './DeliveryOutcomeChip';

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
  const ok =
    record.last_status_code !== null && record.last_status_code >= 200 && record.last_status_code < 300;
  if (record.last_status_code)
    return (
      <Typography
        component="span"
        variant="body2"
        color={ok ? 'text.primary' : 'error'}
        sx={{ fontWeight: ok ? 400 : 500, whiteSpace: 'nowrap' }}
      >
        HTTP {record.last_status_code}
      </Typography>
    );
  if (record.last_error)
    return (
      <Typography component="span" variant="body2" color="error" sx={{ wordBreak: 'break-word' }}>
        {record.last_error}
      </Typography>
    );
  return <>{translate('app.delivery.no_answer_yet')}</>;
};

/** When the next attempt goes, while the delivery is on its way. */
const NextAttemptField = () => {
  const record = useRecordContext<Delivery>();
  const [locale] = useLocaleState();
  if (!record || record.status === 'delivered' || record.status === 'failed' || !record.next_attempt_at)
    return null;
  return (
    <Typography component="span" variant="body2" sx={{ whiteSpace: 'nowrap' }}>
      {formatDateTime(record.next_attempt_at, locale)}
    </Typography>
  );
};

const Empty = () => {
  const { filterValues } = useListContext();
  return (
    <EmptyState
      title={
        Object.entries(filterValues).some(
          ([key, value]) => key !== 'place_id' && value !== false && value !== '',
        )
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
        tertiaryText={(record) => <DeliveryOutcomeChip delivery={record} />}
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
        <DeliveryOutcomeField />
      </DataTable.Col>
      <DataTable.NumberCol source="attempts" label="app.delivery.attempts" disableSort />
      <DataTable.Col source="last_status_code" label="app.delivery.last_answer" disableSort>
        <LastAnswerField />
      </DataTable.Col>
      <DataTable.Col source="next_attempt_at" label="app.delivery.next_attempt_at" disableSort>
        <NextAttemptField />
      </DataTable.Col>
      {!showPlace && (
        <DataTable.Col
          source="url"
          label="app.delivery.url"
          disableSort
          cellSx={() => ({
            maxWidth: 240,
            overflow: 'hidden',
            textOverflow: 'ellipsis',
            whiteSpace: 'nowrap',
          })}
        />
      )}
    </DataTable>
  );
};
