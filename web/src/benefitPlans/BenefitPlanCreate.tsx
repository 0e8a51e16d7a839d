import { Create } from 'react-admin';
import { BenefitPlanForm } from './BenefitPlanForm';

export const BenefitPlanCreate = () => (
  <Create redirect="list">
    <BenefitPlanForm creating />
  </Create>
);
