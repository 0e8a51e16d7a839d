import { Card, CardActionArea, CardContent, Skeleton, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router-dom';

/** One figure with what it counts; red or orange when it says something needs looking at. */
export const StatCard = ({
  label,
  value,
  detail,
  tone = 'normal',
  to,
  loading = false,
}: {
  label: string;
  value: ReactNode;
  detail?: ReactNode;
  tone?: 'normal' | 'good' | 'warning' | 'bad';
  to?: string;
  loading?: boolean;
}) => {
  const color = { normal: 'text.primary', good: 'success.main', warning: 'warning.main', bad: 'error.main' }[
    tone
  ];
  const body = (
    <CardContent>
      <Typography variant="body2" color="text.secondary" component="h3">
        {label}
      </Typography>
      {loading ? (
        <Skeleton variant="text" width={80} height={48} />
      ) : (
        <Typography variant="h4" component="p" sx={{ color, fontWeight: 500 }}>
          {value}
        </Typography>
      )}
      {!loading && detail && (
        <Typography variant="body2" color="text.secondary">
          {detail}
        </Typography>
      )}
    </CardContent>
  );
  return (
    <Card
      variant="outlined"
      component="section"
      sx={{
        borderColor: tone === 'bad' ? 'error.main' : tone === 'warning' ? 'warning.main' : undefined,
        height: '100%',
      }}
    >
      {to ? (
        <CardActionArea component={RouterLink} to={to} sx={{ height: '100%' }}>
          {body}
        </CardActionArea>
      ) : (
        body
      )}
    </Card>
  );
};
