import { Alert, Box, Button } from '@mui/material';
import { useEditContext, useShowContext, useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';

const Message = ({
  error,
  what,
  back,
}: {
  error: { status?: number; message?: string } | null;
  what: string;
  back: string;
}) => {
  const translate = useTranslate();
  const missing = error?.status === 404;
  return (
    <Box sx={{ p: 2 }} role="alert">
      <Alert severity={missing ? 'warning' : 'error'}>
        {missing
          ? translate('app.error.record_not_found', { what: translate(what) })
          : `${translate('app.error.load_failed')} ${error?.message ? translate(error.message, { _: error.message }) : ''}`}
      </Alert>
      <Button component={Link} to={back} sx={{ mt: 2 }}>
        {translate('app.action.back_to_list')}
      </Button>
    </Box>
  );
};

/** A show page whose record could not be read: not found (or not yours), or another error. */
export const NotFoundOrError = ({ what }: { what: string }) => {
  const { error, resource } = useShowContext();
  return <Message error={error as never} what={what} back={`/${resource}`} />;
};

export const EditNotFoundOrError = ({ what }: { what: string }) => {
  const { error, resource } = useEditContext();
  return <Message error={error as never} what={what} back={`/${resource}`} />;
};

/** Show and Edit props that keep a failed page in place with its error state (no redirect, no toast). */
export const stayOnError = {
  redirectOnError: false as const,
  queryOptions: { onError: () => undefined },
};
