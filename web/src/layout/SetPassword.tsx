import { Alert, Box, Button, CircularProgress, TextField, Typography } from '@mui/material';
import { useEffect, useState, type FormEvent } from 'react';
import { useDataProvider, useLocaleState, useTranslate } from 'react-admin';
import { useNavigate, useParams } from 'react-router-dom';
import { formatDateTime } from '../common/format';
import type { ConsoleDataProvider } from '../dataProvider';
import type { PasswordLinkInfo } from '../types';
import { CenteredCard } from './CenteredCard';
import { handler } from '../common/handler';

const MIN_LENGTH = 12;

/** #/set-password/:token, the page an invitation or reset link opens. */
export const SetPassword = () => {
  const { token = '' } = useParams();
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const navigate = useNavigate();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const [link, setLink] = useState<PasswordLinkInfo | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let current = true;
    dataProvider
      .passwordLink(token)
      .then((info) => current && setLink(info))
      .catch((failure: Error) => current && setLoadError(translate(failure.message, { _: failure.message })));
    return () => {
      current = false;
    };
  }, [dataProvider, token, translate]);

  const tooShort = password.length > 0 && password.length < MIN_LENGTH;
  const mismatch = confirmation.length > 0 && confirmation !== password;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (password.length < MIN_LENGTH || password !== confirmation) return;
    setBusy(true);
    setError(null);
    try {
      await dataProvider.setPassword(token, password);
      await navigate('/login', { replace: true, state: { email: link?.email } });
    } catch (failure) {
      const message = (failure as Error).message;
      setError(translate(message, { _: message }));
      setBusy(false);
    }
  };

  if (loadError) {
    return (
      <CenteredCard title="app.set_password.title">
        <Alert severity="error" role="alert" sx={{ mb: 2 }}>
          {translate('app.set_password.invalid_link')}
        </Alert>
        <Typography variant="body2" color="text.secondary">
          {translate('app.set_password.ask_again')}
        </Typography>
      </CenteredCard>
    );
  }
  if (!link) {
    return (
      <CenteredCard title="app.set_password.title">
        <Box sx={{ display: 'flex', justifyContent: 'center', py: 4 }}>
          <CircularProgress aria-label={translate('ra.page.loading')} />
        </Box>
      </CenteredCard>
    );
  }
  return (
    <CenteredCard
      title={link.purpose === 'invitation' ? 'app.set_password.welcome' : 'app.set_password.title'}
    >
      <Typography variant="body1" sx={{ mb: 2 }}>
        {translate(`app.set_password.intro_${link.purpose}`, { name: link.name, email: link.email })}
      </Typography>
      <Box component="form" onSubmit={handler(submit)} noValidate sx={{ display: 'grid', gap: 2 }}>
        {error && (
          <Alert severity="error" role="alert">
            {error}
          </Alert>
        )}
        <input type="email" autoComplete="username" value={link.email} readOnly hidden />
        <TextField
          label={translate('app.set_password.password')}
          type="password"
          autoComplete="new-password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          error={tooShort}
          helperText={translate('app.set_password.rule', { min: MIN_LENGTH })}
          required
          autoFocus
          fullWidth
        />
        <TextField
          label={translate('app.set_password.confirmation')}
          type="password"
          autoComplete="new-password"
          value={confirmation}
          onChange={(event) => setConfirmation(event.target.value)}
          error={mismatch}
          helperText={mismatch ? translate('app.set_password.mismatch') : ' '}
          required
          fullWidth
        />
        <Button
          type="submit"
          variant="contained"
          size="large"
          disabled={busy || password.length < MIN_LENGTH || password !== confirmation}
        >
          {translate('app.set_password.submit')}
        </Button>
        <Typography variant="caption" color="text.secondary">
          {translate('app.set_password.expires', { when: formatDateTime(link.expires_at, locale) })}
        </Typography>
      </Box>
    </CenteredCard>
  );
};
