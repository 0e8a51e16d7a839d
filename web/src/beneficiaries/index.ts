import PeopleIcon from '@mui/icons-material/People';
import { BeneficiaryCreate } from './BeneficiaryCreate';
import { BeneficiaryEdit } from './BeneficiaryEdit';
import { BeneficiaryList } from './BeneficiaryList';
import { BeneficiaryShow } from './BeneficiaryShow';

export default {
  list: BeneficiaryList,
  show: BeneficiaryShow,
  create: BeneficiaryCreate,
  edit: BeneficiaryEdit,
  icon: PeopleIcon,
  recordRepresentation: 'name',
};
