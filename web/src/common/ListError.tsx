import { Alert, Button } from '@mui/material';
import { useListContext, useTranslate } from 'react-admin';
import { handler } from './handler';

/** The error state of a list: the service's own sentence and a way to try again. */
export const ListError = () => {
  const { error, refetch } = useListContext();
  const translate = useTranslate();
  const message = error?.message
    ? translate(error.message, { _: error.message })
    : translate('app.error.unexpected');
  return (
    <Alert
      severity="error"
      sx={{ m: 2 }}
      action={
        <Button color="inherit" size="small" onClick={handler(() => refetch())}>
          {translate('app.action.retry')}
        </Button>
      }
    >
      {translate('app.error.list_failed')} {message}
    </Alert>
  );
};
