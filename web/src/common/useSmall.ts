import { useMediaQuery, type Theme } from '@mui/material';

/** Phone widths get lists of cards instead of tables. */
export const useSmall = () => useMediaQuery<Theme>((theme) => theme.breakpoints.down('md'));
