import { Chip } from '@mui/material';
import { useRecordContext, useTranslate } from 'react-admin';
import type { Delivery } from '../types';
import { deliveryOutcome, OUTCOME_COLOR } from './deliveryOutcome';

/** What became of a delivery, in colour and words: delivered, failed (HTTP 503), retrying after HTTP 503, ... */
export const DeliveryOutcomeChip = ({ delivery }: { delivery: Delivery }) => {
  const translate = useTranslate();
  const outcome = deliveryOutcome(delivery);
  const answer = outcome.answer ?? translate('app.delivery.no_response');
  return (
    <Chip
      size="small"
      color={OUTCOME_COLOR[outcome.kind]}
      variant={outcome.kind === 'waiting' ? 'outlined' : 'filled'}
      label={translate(`app.delivery.outcome.${outcome.kind}`, { answer })}
      sx={{ maxWidth: '100%' }}
    />
  );
};

export const DeliveryOutcomeField = (_props: { source?: string; label?: string }) => {
  const record = useRecordContext<Delivery>();
  return record ? <DeliveryOutcomeChip delivery={record} /> : null;
};
