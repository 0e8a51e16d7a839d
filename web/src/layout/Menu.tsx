import DashboardIcon from '@mui/icons-material/Speed';
import { Menu as RaMenu, usePermissions, useTranslate } from 'react-admin';

/** One entry per screen the person's role may open (react-admin hides the others through canAccess). */
export const Menu = () => {
  const { permissions } = usePermissions();
  const translate = useTranslate();
  return (
    <RaMenu>
      <RaMenu.DashboardItem primaryText={translate('app.overview.title')} />
      <RaMenu.ResourceItem name="places" />
      <RaMenu.ResourceItem name="partners" />
      <RaMenu.ResourceItem name="benefit-plans" />
      <RaMenu.ResourceItem name="beneficiaries" />
      <RaMenu.ResourceItem name="visits" />
      <RaMenu.ResourceItem name="deliveries" />
      <RaMenu.ResourceItem name="accounts" />
      <RaMenu.ResourceItem name="audit" />
      {(permissions === 'operator' || permissions === 'support') && (
        <RaMenu.Item
          to="/admin/queues"
          primaryText={translate('app.menu.queues')}
          leftIcon={<DashboardIcon />}
          onClick={(event: React.MouseEvent) => {
            event.preventDefault();
            window.open('/admin/queues', '_blank', 'noopener');
          }}
        />
      )}
    </RaMenu>
  );
};
