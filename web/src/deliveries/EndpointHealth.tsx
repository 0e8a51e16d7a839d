import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import ErrorIcon from '@mui/icons-material/Error';
import PauseCircleIcon from '@mui/icons-material/PauseCircle';
import BlockIcon from '@mui/icons-material/Block';
import HourglassTopIcon from '@mui/icons-material/HourglassTop';
import { Alert, AlertTitle, Chip } from '@mui/material';
import type { ReactElement } from 'react';
import { useLocaleState, useTranslate } from 'react-admin';
import { formatDateTime } from '../common/format';
import type { EndpointState } from '../types';
import { endpointHealth, HEALTH_COLOR, type EndpointHealthKind } from './endpointHealth';

const ICON: Record<EndpointHealthKind, ReactElement> = {
  healthy: <CheckCircleIcon />,
  failing: <ErrorIcon />,
  open: <PauseCircleIcon />,
  probing: <HourglassTopIcon />,
  disabled: <BlockIcon />,
};

const SEVERITY = {
  healthy: 'success',
  failing: 'error',
  open: 'error',
  probing: 'warning',
  disabled: 'info',
} as const;

/** The endpoint's state in a few words (colour and text): healthy, failing since T, paused until T, off. */
export function useHealthWords() {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const when = (value: string | null) => (value ? formatDateTime(value, locale) : '—');
  return (state: EndpointState | undefined, active = true) => {
    const health = endpointHealth(state, active);
    // Where the service does not say since when (a delivery's page), the last failure is what is known.
    const key = health.kind === 'failing' && !health.since ? 'failing_last' : health.kind;
    const title = translate(`app.health.${key}`, {
      since: when(health.since),
      until: when(health.until),
      last: when(health.lastFailureAt),
    });
    const detail = translate(`app.health.${health.kind}_detail`, {
      smart_count: health.failures,
      error: health.lastError ?? translate('app.health.no_error'),
      until: when(health.until),
    });
    return { health, title, detail };
  };
}

/** A chip for lists: the state in colour and in words. */
export const EndpointHealthChip = ({ state, active = true }: { state?: EndpointState; active?: boolean }) => {
  const words = useHealthWords();
  const { health, title } = words(state, active);
  return (
    <Chip
      size="small"
      icon={ICON[health.kind]}
      color={HEALTH_COLOR[health.kind]}
      variant={health.kind === 'disabled' ? 'outlined' : 'filled'}
      label={title}
    />
  );
};

/** The state of a webhook on its card: what is happening and what it means for its deliveries. */
export const EndpointHealthAlert = ({
  state,
  active = true,
}: {
  state?: EndpointState;
  active?: boolean;
}) => {
  const words = useHealthWords();
  const { health, title, detail } = words(state, active);
  return (
    <Alert
      severity={SEVERITY[health.kind]}
      icon={ICON[health.kind]}
      variant={health.kind === 'healthy' || health.kind === 'disabled' ? 'outlined' : 'filled'}
      role="status"
      aria-label={title}
    >
      <AlertTitle sx={{ mb: detail ? 0.5 : 0 }}>{title}</AlertTitle>
      {detail}
    </Alert>
  );
};
