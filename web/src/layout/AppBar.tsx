import CheckIcon from '@mui/icons-material/Check';
import TranslateIcon from '@mui/icons-material/Translate';
import { Chip, ListItemIcon, ListItemText, MenuItem, Typography } from '@mui/material';
import {
  AppBar as RaAppBar,
  LoadingIndicator,
  LocalesMenuButton,
  Logout,
  TitlePortal,
  UserMenu,
  useGetIdentity,
  useLocales,
  useLocaleState,
  useTranslate,
  useUserMenu,
} from 'react-admin';
import { useSmall } from '../common/useSmall';

const RoleChip = () => {
  const { identity } = useGetIdentity();
  const translate = useTranslate();
  const role = identity?.account?.role as string | undefined;
  if (!role) return null;
  return (
    <Chip
      size="small"
      label={translate(`app.role.${role}`)}
      sx={{
        color: 'inherit',
        borderColor: 'rgba(255,255,255,0.6)',
        display: { xs: 'none', sm: 'inline-flex' },
        mr: 1,
      }}
      variant="outlined"
    />
  );
};

/** The language choice inside the user menu, where it fits on a phone too. */
const LanguageItems = () => {
  const locales = useLocales();
  const [locale, setLocale] = useLocaleState();
  const userMenu = useUserMenu();
  return (
    <>
      {locales.map((option) => (
        <MenuItem
          key={option.locale}
          lang={option.locale}
          selected={option.locale === locale}
          onClick={() => {
            setLocale(option.locale);
            userMenu?.onClose();
          }}
        >
          <ListItemIcon>
            {option.locale === locale ? <CheckIcon fontSize="small" /> : <TranslateIcon fontSize="small" />}
          </ListItemIcon>
          <ListItemText>{option.name}</ListItemText>
        </MenuItem>
      ))}
    </>
  );
};

const Toolbar = () => {
  const small = useSmall();
  return (
    <>
      {!small && <LocalesMenuButton />}
      <LoadingIndicator />
    </>
  );
};

export const AppBar = () => {
  const translate = useTranslate();
  return (
    <RaAppBar
      color="secondary"
      toolbar={<Toolbar />}
      userMenu={
        <UserMenu>
          <LanguageItems />
          <Logout />
        </UserMenu>
      }
    >
      <Typography
        variant="subtitle1"
        component="span"
        sx={{ mr: 2, fontWeight: 500, display: { xs: 'none', lg: 'block' }, whiteSpace: 'nowrap' }}
      >
        {translate('app.name')}
      </Typography>
      <TitlePortal />
      <RoleChip />
    </RaAppBar>
  );
};
