import DownloadIcon from '@mui/icons-material/Download';
import { Button } from '@mui/material';
import { useListContext, useTranslate } from 'react-admin';
import { exportUrl } from '../dataProvider';

/** Downloads the whole list (every page) as the service writes it in CSV, with the filters on screen. */
export const ExportButton = () => {
  const { resource, filterValues, total } = useListContext();
  const translate = useTranslate();
  const href = exportUrl(resource, filterValues);
  if (!href) return null;
  return (
    <Button
      component="a"
      href={href}
      download
      size="small"
      startIcon={<DownloadIcon />}
      aria-disabled={total === 0 || undefined}
      title={translate('app.export.hint')}
    >
      {translate('app.export.csv')}
    </Button>
  );
};
