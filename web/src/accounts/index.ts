import ManageAccountsIcon from '@mui/icons-material/ManageAccounts';
import { AccountCreate } from './AccountCreate';
import { AccountEdit } from './AccountEdit';
import { AccountList } from './AccountList';

export default {
  list: AccountList,
  create: AccountCreate,
  edit: AccountEdit,
  icon: ManageAccountsIcon,
  recordRepresentation: 'name',
};
