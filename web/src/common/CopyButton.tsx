import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import { Button } from '@mui/material';
import { useNotify, useTranslate } from 'react-admin';
import { copyText } from './clipboard';
import { handler } from './handler';

/** Copies a value (or the value a callback fetches first, e.g. a key to reveal) and says so. */
export const CopyButton = ({
  value,
  label = 'app.action.copy',
  what,
  disabled,
}: {
  value: string | (() => Promise<string>);
  label?: string;
  what?: string;
  disabled?: boolean;
}) => {
  const translate = useTranslate();
  const notify = useNotify();
  const copy = async () => {
    try {
      const text = typeof value === 'string' ? value : await value();
      await copyText(text);
      notify('app.notification.copied', { type: 'info', messageArgs: { what: what ? translate(what) : '' } });
    } catch (error) {
      const message = (error as Error)?.message;
      notify(message && message !== 'copy refused' ? message : 'app.notification.copy_failed', {
        type: 'error',
      });
    }
  };
  return (
    <Button size="small" startIcon={<ContentCopyIcon />} onClick={handler(copy)} disabled={disabled}>
      {translate(label)}
    </Button>
  );
};
