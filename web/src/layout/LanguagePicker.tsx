import { Box, MenuItem, TextField } from '@mui/material';
import { useLocales, useLocaleState, useTranslate } from 'react-admin';

/** The language switch of the pages outside the layout (sign-in, set password). */
export const LanguagePicker = () => {
  const locales = useLocales();
  const [locale, setLocale] = useLocaleState();
  const translate = useTranslate();
  return (
    <Box sx={{ width: 240 }}>
      <TextField
        select
        size="small"
        label={translate('app.language')}
        value={locale}
        onChange={(event) => setLocale(event.target.value)}
      >
        {locales.map((option) => (
          <MenuItem key={option.locale} value={option.locale}>
            {option.name}
          </MenuItem>
        ))}
      </TextField>
    </Box>
  );
};
