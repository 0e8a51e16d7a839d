import { defaultTheme } from 'react-admin';
import { deepmerge } from '@mui/utils';

/** react-admin's default look, a calmer palette and tables that breathe a little more. */
export const theme = deepmerge(defaultTheme, {
  palette: {
    primary: { main: '#1b5e8c' },
    secondary: { main: '#1b5e8c' },
    background: { default: '#f5f7fa' },
  },
  shape: { borderRadius: 8 },
  typography: { fontFamily: 'Roboto, "Helvetica Neue", Arial, sans-serif' },
  components: {
    MuiAppBar: { styleOverrides: { colorSecondary: { backgroundColor: '#1b5e8c', color: '#fff' } } },
    MuiButtonBase: { defaultProps: { disableRipple: false } },
  },
});
