import { Box, Chip, Typography } from '@mui/material';
import { AppBar as RaAppBar, TitlePortal, useGetIdentity, useTranslate } from 'react-admin';

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

export const AppBar = () => {
  const translate = useTranslate();
  return (
    <RaAppBar color="secondary">
      <Typography
        variant="subtitle1"
        component="span"
        sx={{ mr: 2, fontWeight: 500, display: { xs: 'none', md: 'block' } }}
      >
        {translate('app.name')}
      </Typography>
      <TitlePortal />
      <Box sx={{ flex: 1 }} />
      <RoleChip />
    </RaAppBar>
  );
};
