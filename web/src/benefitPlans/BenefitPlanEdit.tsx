import { Edit } from 'react-admin';
import { EditNotFoundOrError, stayOnError } from '../common/NotFoundOrError';
import { BenefitPlanForm } from './BenefitPlanForm';

export const BenefitPlanEdit = () => (
  <Edit
    mutationMode="pessimistic"
    redirect="list"
    {...stayOnError}
    error={<EditNotFoundOrError what="app.benefit_plans.one" />}
  >
    <BenefitPlanForm />
  </Edit>
);
