import AutorenewIcon from '@mui/icons-material/Autorenew';
import VisibilityIcon from '@mui/icons-material/Visibility';
import VisibilityOffIcon from '@mui/icons-material/VisibilityOff';
import { Alert, Box, Button, Card, CardContent, Stack, Typography } from '@mui/material';
import { useId, useState } from 'react';
import { useLocaleState, useNotify, useTranslate } from 'react-admin';
import { CopyButton } from '../common/CopyButton';
import { maskKey } from '../common/format';
import { SafeConfirm } from '../common/SafeConfirm';
import { SecretBox } from '../common/SecretBox';

interface KeyPanelProps {
  /** Translation key of the key's name, e.g. "Place key". */
  title: string;
  /** Translation key: what the key is for. */
  description: string;
  /** The key as the service sent it (masked for most people). */
  current: string | undefined;
  /** Fetches the whole key (an audited reveal); absent when the person may not see it. */
  reveal?: () => Promise<string>;
  /** Issues a new key; absent when the person may not rotate it. */
  rotate?: () => Promise<string>;
  /** Translation key: what stops working when the key is rotated. */
  rotateWarning: string;
  rotateArgs?: Record<string, unknown>;
  onRotated?: () => void;
}

/** One key: masked, revealed on request, copied, rotated after a confirmation that says what stops working. */
export const KeyPanel = ({
  title,
  description,
  current,
  reveal,
  rotate,
  rotateWarning,
  rotateArgs,
  onRotated,
}: KeyPanelProps) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const notify = useNotify();
  const headingId = useId();
  const [whole, setWhole] = useState<string | null>(null);
  const [shown, setShown] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [rotating, setRotating] = useState(false);
  const [rotated, setRotated] = useState(false);

  const fetchWhole = async (): Promise<string> => {
    if (whole) return whole;
    if (!reveal) throw new Error('app.error.forbidden');
    const key = await reveal();
    setWhole(key);
    return key;
  };

  const toggle = async () => {
    if (shown) return setShown(false);
    try {
      await fetchWhole();
      setShown(true);
    } catch (error) {
      notify((error as Error).message, { type: 'error' });
    }
  };

  const doRotate = async () => {
    if (!rotate) return;
    setRotating(true);
    try {
      const key = await rotate();
      setWhole(key);
      setShown(true);
      setRotated(true);
      notify('app.keys.rotated', { type: 'success', messageArgs: { what: translate(title) } });
      onRotated?.();
    } catch (error) {
      notify((error as Error).message, { type: 'error' });
    } finally {
      setRotating(false);
      setConfirming(false);
    }
  };

  const display = shown && whole ? whole : maskKey(whole ?? current);
  return (
    <Card component="section" aria-labelledby={headingId} variant="outlined">
      <CardContent>
        <Typography id={headingId} variant="h6" component="h3">
          {translate(title)}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
          {translate(description)}
        </Typography>
        {rotated && (
          <Alert severity="success" sx={{ mb: 1.5 }}>
            {translate('app.keys.rotated_hint')}
          </Alert>
        )}
        <SecretBox value={display || translate('app.keys.hidden')} label={translate(title)} hint={!display} />
        <Stack direction="row" spacing={1} sx={{ mt: 1.5, flexWrap: 'wrap', rowGap: 1 }}>
          {reveal && (
            <Button
              size="small"
              startIcon={shown ? <VisibilityOffIcon /> : <VisibilityIcon />}
              onClick={toggle}
            >
              {translate(shown ? 'app.keys.hide' : 'app.keys.reveal')}
            </Button>
          )}
          {reveal && <CopyButton value={fetchWhole} what={title} />}
          {rotate && (
            <Button
              size="small"
              color="warning"
              startIcon={<AutorenewIcon />}
              onClick={() => setConfirming(true)}
            >
              {translate('app.keys.rotate')}
            </Button>
          )}
        </Stack>
        {!reveal && (
          <Box sx={{ mt: 1 }}>
            <Typography variant="caption" color="text.secondary">
              {translate('app.keys.masked_for_role')}
            </Typography>
          </Box>
        )}
      </CardContent>
      <SafeConfirm
        isOpen={confirming}
        loading={rotating}
        title={translate('app.keys.rotate_title', { what: translate(title).toLocaleLowerCase(locale) })}
        content={translate(rotateWarning, rotateArgs)}
        confirm={translate('app.keys.rotate_confirm')}
        onConfirm={doRotate}
        onClose={() => setConfirming(false)}
      />
    </Card>
  );
};
