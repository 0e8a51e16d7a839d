import CardMembershipIcon from '@mui/icons-material/CardMembership';
import { BenefitPlanCreate } from './BenefitPlanCreate';
import { BenefitPlanEdit } from './BenefitPlanEdit';
import { BenefitPlanList } from './BenefitPlanList';

export default {
  list: BenefitPlanList,
  create: BenefitPlanCreate,
  edit: BenefitPlanEdit,
  icon: CardMembershipIcon,
  recordRepresentation: 'name',
};
