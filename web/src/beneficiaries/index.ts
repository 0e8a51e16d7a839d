import PeopleIcon from '@mui/icons-material/People';
import { BeneficiaryCreate } from './BeneficiaryCreate';
import { BeneficiaryEdit } from './BeneficiaryEdit';
import { BeneficiaryList } from './BeneficiaryList';

export default {
  list: BeneficiaryList,
  create: BeneficiaryCreate,
  edit: BeneficiaryEdit,
  icon: PeopleIcon,
  recordRepresentation: 'name',
};
