import { Box } from '@mui/material';

/** A key, secret or link in monospace that wraps on a phone instead of running off the screen. */
export const SecretBox = ({ value, label, hint }: { value: string; label: string; hint?: boolean }) => (
  <Box
    component="output"
    aria-label={label}
    sx={{
      display: 'block',
      fontFamily: hint ? 'inherit' : 'monospace',
      fontStyle: hint ? 'italic' : 'normal',
      color: hint ? 'text.secondary' : 'text.primary',
      fontSize: '0.95rem',
      bgcolor: 'action.hover',
      borderRadius: 1,
      px: 1.5,
      py: 1,
      wordBreak: 'break-all',
    }}
  >
    {value}
  </Box>
);
