import {
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
} from '@mui/material';
import { useId, useRef } from 'react';
import { useTranslate } from 'react-admin';

/**
 * A confirmation for what cannot be undone (rotating a key, deleting a webhook or a plan): the focus starts on
 * Cancel, so Enter or Space right after opening it cancels; the destructive button must be chosen on purpose.
 */
export const SafeConfirm = ({
  isOpen,
  title,
  content,
  confirm,
  loading = false,
  onConfirm,
  onClose,
}: {
  isOpen: boolean;
  title: string;
  content: string;
  confirm: string;
  loading?: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) => {
  const translate = useTranslate();
  const titleId = useId();
  const contentId = useId();
  const cancel = useRef<HTMLButtonElement>(null);
  return (
    <Dialog
      open={isOpen}
      onClose={loading ? undefined : onClose}
      aria-labelledby={titleId}
      aria-describedby={contentId}
      // Once the dialog has opened, the focus is on Cancel (whatever the focus trap chose while it opened).
      slotProps={{ transition: { onEntered: () => cancel.current?.focus() } }}
    >
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <DialogContent>
        <DialogContentText id={contentId}>{content}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button ref={cancel} onClick={onClose} disabled={loading} autoFocus>
          {translate('ra.action.cancel')}
        </Button>
        <Button
          onClick={onConfirm}
          disabled={loading}
          color="warning"
          variant="contained"
          startIcon={loading ? <CircularProgress size={16} color="inherit" /> : undefined}
        >
          {confirm}
        </Button>
      </DialogActions>
    </Dialog>
  );
};
