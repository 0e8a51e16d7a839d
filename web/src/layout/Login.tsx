import { Alert, Box, Button, CircularProgress, TextField } from '@mui/material';
import { useEffect, useState, type FormEvent } from 'react';
import { forgetSessionEnded, sessionEnded } from '../authProvider';
import { useLogin, useTranslate } from 'react-admin';
import { useLocation } from 'react-router-dom';
import { CenteredCard } from './CenteredCard';

export const Login = () => {
  const translate = useTranslate();
  const login = useLogin();
  const location = useLocation();
  const initialEmail = (location.state as { email?: string } | null)?.email ?? '';
  const [email, setEmail] = useState(initialEmail);
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [ended] = useState(sessionEnded);
  useEffect(forgetSessionEnded, []);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    setBusy(true);
    try {
      await login({ email: email.trim(), password });
    } catch (failure) {
      const message = (failure as Error)?.message;
      setError(message ? translate(message, { _: message }) : translate('app.error.unexpected'));
      setBusy(false);
    }
  };

  return (
    <CenteredCard title="app.login.title">
      <Box component="form" onSubmit={submit} noValidate sx={{ display: 'grid', gap: 2, mt: 1 }}>
        {initialEmail && !error && <Alert severity="success">{translate('app.login.password_set')}</Alert>}
        {ended && !error && (
          <Alert severity="info" role="status">
            {translate('app.login.session_ended')}
          </Alert>
        )}
        {error && (
          <Alert severity="error" role="alert">
            {error}
          </Alert>
        )}
        <TextField
          label={translate('app.login.email')}
          type="email"
          autoComplete="username"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          required
          autoFocus={!initialEmail}
          fullWidth
        />
        <TextField
          label={translate('app.login.password')}
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          required
          autoFocus={Boolean(initialEmail)}
          fullWidth
        />
        <Button type="submit" variant="contained" size="large" disabled={busy || !email || !password}>
          {busy ? (
            <CircularProgress size={24} color="inherit" aria-label={translate('ra.page.loading')} />
          ) : (
            translate('app.login.submit')
          )}
        </Button>
        <Box sx={{ typography: 'body2', color: 'text.secondary' }}>{translate('app.login.help')}</Box>
      </Box>
    </CenteredCard>
  );
};
