import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import SendIcon from '@mui/icons-material/Send';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  CircularProgress,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import { useCanAccess, useDataProvider, useNotify, useRecordContext, useTranslate } from 'react-admin';
import { CopyButton } from '../common/CopyButton';
import { DateTimeText } from '../common/fields';
import { SafeConfirm } from '../common/SafeConfirm';
import { SecretBox } from '../common/SecretBox';
import { EndpointHealthAlert } from '../deliveries/EndpointHealth';
import type { ConsoleDataProvider } from '../dataProvider';
import type { Place, Webhook } from '../types';
import { RecentDeliveries } from './RecentDeliveries';
import { urlProblem } from './webhookUrl';

const TYPE = 'CHECKIN';
const STATE_REFRESH_MS = 15_000;

const UrlForm = ({
  initial,
  submitLabel,
  onSubmit,
  onCancel,
}: {
  initial: string;
  submitLabel: string;
  /** Resolves to the service's refusal (shown under the field), or null when it took the URL. */
  onSubmit: (url: string) => Promise<string | null>;
  onCancel?: () => void;
}) => {
  const translate = useTranslate();
  const [url, setUrl] = useState(initial);
  const [busy, setBusy] = useState(false);
  const [touched, setTouched] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const problem = touched ? urlProblem(url) : null;
  const message = problem ? translate(problem) : refusal;
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (urlProblem(url)) return;
    setBusy(true);
    try {
      setRefusal(await onSubmit(url.trim()));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Box component="form" onSubmit={submit} noValidate sx={{ display: 'grid', gap: 1.5, mt: 1 }}>
      <TextField
        label={translate('app.webhook.url')}
        helperText={message ?? translate('app.webhook.url_help')}
        error={Boolean(message)}
        value={url}
        onChange={(event) => {
          setUrl(event.target.value);
          setRefusal(null);
        }}
        onBlur={() => setTouched(url.trim() !== '')}
        type="url"
        required
        fullWidth
        autoFocus={Boolean(onCancel)}
        slotProps={{ htmlInput: { 'aria-invalid': Boolean(message) } }}
      />
      <Stack direction="row" spacing={1}>
        <Button type="submit" variant="contained" disabled={busy}>
          {translate(submitLabel)}
        </Button>
        {onCancel && <Button onClick={onCancel}>{translate('ra.action.cancel')}</Button>}
      </Stack>
    </Box>
  );
};

/** The place's check-in webhook: subscribe, change, delete, test, and watch the deliveries arrive. */
export const PlaceWebhook = () => {
  const place = useRecordContext<Place>();
  const translate = useTranslate();
  const notify = useNotify();
  const headingId = useId();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const { canAccess: canCreate } = useCanAccess({ resource: 'place-webhooks', action: 'create' });
  const { canAccess: canEdit } = useCanAccess({ resource: 'place-webhooks', action: 'edit' });
  const { canAccess: canDelete } = useCanAccess({ resource: 'place-webhooks', action: 'delete' });
  const { canAccess: canTest } = useCanAccess({ resource: 'place-webhooks', action: 'test' });
  const [webhooks, setWebhooks] = useState<Webhook[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const [editing, setEditing] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [testedAt, setTestedAt] = useState<number | null>(null);
  const placeId = place?.id;

  const load = useCallback(async () => {
    if (!placeId) return;
    setError(null);
    try {
      setWebhooks(await dataProvider.webhooks(placeId));
    } catch (failure) {
      setError((failure as Error).message);
    }
  }, [dataProvider, placeId]);

  useEffect(() => {
    void load();
  }, [load]);

  const fail = (failure: unknown) => notify((failure as Error).message, { type: 'error' });
  /** A refusal of the URL, said under the field with the field's own name rather than the API's. */
  const refusalOf = (failure: unknown): string => {
    const message = (failure as Error).message;
    return translate('app.webhook.url_refused', {
      reason: translate(message, { _: message }).replace(/webhook_url/g, translate('app.webhook.url')),
    });
  };

  useEffect(() => {
    // The card follows the endpoint's state (failing, paused, healthy again) without a reload.
    const timer = setInterval(() => void load(), STATE_REFRESH_MS);
    return () => clearInterval(timer);
  }, [load]);

  if (!place) return null;
  const webhook = webhooks?.find((candidate) => candidate.webhook_type === TYPE);

  const subscribe = async (url: string) => {
    try {
      const created = await dataProvider.createWebhook(place.id, url, TYPE);
      setSecret(created.secret ?? null);
      notify('app.webhook.subscribed', { type: 'success' });
      await load();
      return null;
    } catch (failure) {
      return refusalOf(failure);
    }
  };
  const change = async (url: string) => {
    try {
      await dataProvider.updateWebhook(place.id, TYPE, url);
      setEditing(false);
      notify('app.webhook.changed', { type: 'success' });
      await load();
      return null;
    } catch (failure) {
      return refusalOf(failure);
    }
  };
  const remove = async () => {
    try {
      await dataProvider.deleteWebhook(place.id, TYPE);
      setSecret(null);
      notify('app.webhook.deleted', { type: 'success' });
      await load();
    } catch (failure) {
      fail(failure);
    } finally {
      setConfirmDelete(false);
    }
  };
  const sendTest = async () => {
    try {
      await dataProvider.testWebhook(place.id, TYPE);
      setTestedAt(Date.now());
      notify('app.webhook.test_sent', { type: 'info' });
    } catch (failure) {
      fail(failure);
    }
  };

  return (
    <Stack spacing={2} sx={{ maxWidth: 960 }}>
      <Card component="section" aria-labelledby={headingId} variant="outlined">
        <CardContent>
          <Typography id={headingId} variant="h6" component="h3">
            {translate('app.webhook.title')}
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
            {translate('app.webhook.intro')}
          </Typography>
          {error && (
            <Alert severity="error" action={<Button onClick={load}>{translate('app.action.retry')}</Button>}>
              {translate(error, { _: error })}
            </Alert>
          )}
          {!error && webhooks === null && (
            <CircularProgress size={24} aria-label={translate('ra.page.loading')} />
          )}
          {secret && (
            <Alert severity="warning" sx={{ mb: 2 }}>
              <Typography variant="body2" sx={{ mb: 1 }}>
                {translate('app.webhook.secret_once')}
              </Typography>
              <SecretBox value={secret} label={translate('app.webhook.secret')} />
              <CopyButton value={secret} what="app.webhook.secret" />
            </Alert>
          )}
          {webhooks && !webhook && (
            <>
              <Typography variant="body1" sx={{ fontWeight: 500 }}>
                {translate('app.webhook.none')}
              </Typography>
              {canCreate ? (
                <UrlForm initial="" submitLabel="app.webhook.subscribe" onSubmit={subscribe} />
              ) : (
                <Typography variant="body2" color="text.secondary">
                  {translate('app.webhook.read_only')}
                </Typography>
              )}
            </>
          )}
          {webhook && !editing && (
            <Box>
              <Box sx={{ mb: 2 }}>
                <EndpointHealthAlert state={webhook.delivery_state} active={webhook.active} />
              </Box>
              <Box
                component="dl"
                sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '160px 1fr' }, gap: 1, m: 0 }}
              >
                <Typography component="dt" variant="body2" color="text.secondary">
                  {translate('app.webhook.url')}
                </Typography>
                <Typography
                  component="dd"
                  variant="body2"
                  sx={{ m: 0, fontFamily: 'monospace', wordBreak: 'break-all' }}
                >
                  {webhook.webhook_url}
                </Typography>
                <Typography component="dt" variant="body2" color="text.secondary">
                  {translate('app.webhook.events')}
                </Typography>
                <Typography component="dd" variant="body2" sx={{ m: 0 }}>
                  {translate('app.webhook.checkin_events')}
                </Typography>
                <Typography component="dt" variant="body2" color="text.secondary">
                  {translate('app.webhook.since')}
                </Typography>
                <Typography component="dd" variant="body2" sx={{ m: 0 }}>
                  <DateTimeText value={webhook.created_at} />
                </Typography>
              </Box>
              <Stack direction="row" spacing={1} sx={{ mt: 2, flexWrap: 'wrap', rowGap: 1 }}>
                {canTest && (
                  <Button variant="contained" startIcon={<SendIcon />} onClick={sendTest}>
                    {translate('app.webhook.send_test')}
                  </Button>
                )}
                {canEdit && (
                  <Button startIcon={<EditIcon />} onClick={() => setEditing(true)}>
                    {translate('app.webhook.change')}
                  </Button>
                )}
                {canDelete && (
                  <Button color="error" startIcon={<DeleteIcon />} onClick={() => setConfirmDelete(true)}>
                    {translate('app.webhook.delete')}
                  </Button>
                )}
              </Stack>
            </Box>
          )}
          {webhook && editing && (
            <UrlForm
              initial={webhook.webhook_url}
              submitLabel="ra.action.save"
              onSubmit={change}
              onCancel={() => setEditing(false)}
            />
          )}
        </CardContent>
      </Card>
      <RecentDeliveries placeId={place.id} watchSince={testedAt} />
      <SafeConfirm
        isOpen={confirmDelete}
        title={translate('app.webhook.delete_title')}
        content={translate('app.webhook.delete_warning', { url: webhook?.webhook_url ?? '' })}
        confirm={translate('app.webhook.delete')}
        onConfirm={remove}
        onClose={() => setConfirmDelete(false)}
      />
    </Stack>
  );
};
