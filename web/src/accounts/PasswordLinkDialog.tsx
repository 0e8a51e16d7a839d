import { Alert, Button, Dialog, DialogActions, DialogContent, DialogTitle, Typography } from '@mui/material';
import { useLocaleState, useTranslate } from 'react-admin';
import { CopyButton } from '../common/CopyButton';
import { formatDateTime } from '../common/format';
import { SecretBox } from '../common/SecretBox';
import type { PasswordLink } from '../types';

/** The one-time link of an invitation or reset: shown once, to be passed on to the person. */
export const PasswordLinkDialog = ({
  link,
  purpose,
  name,
  onClose,
}: {
  link: PasswordLink | null;
  purpose: 'invitation' | 'reset';
  name: string;
  onClose: () => void;
}) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const label = translate(
    purpose === 'invitation' ? 'app.accounts.invitation_link' : 'app.accounts.reset_link',
  );
  return (
    <Dialog
      open={link !== null}
      onClose={onClose}
      aria-labelledby="password-link-title"
      fullWidth
      maxWidth="sm"
    >
      <DialogTitle id="password-link-title">{label}</DialogTitle>
      <DialogContent>
        <Typography variant="body2" sx={{ mb: 1.5 }}>
          {translate(`app.accounts.link_intro_${purpose}`, { name })}
        </Typography>
        {link && <SecretBox value={link.url} label={label} />}
        <Alert severity="warning" sx={{ mt: 1.5 }}>
          {translate('app.accounts.link_once', { when: formatDateTime(link?.expires_at, locale) })}
        </Alert>
      </DialogContent>
      <DialogActions>
        {link && <CopyButton value={link.url} what={label} />}
        <Button onClick={onClose} variant="contained">
          {translate('app.action.done')}
        </Button>
      </DialogActions>
    </Dialog>
  );
};
