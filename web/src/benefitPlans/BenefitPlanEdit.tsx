import { Edit } from 'react-admin';
import { EditNotFoundOrError } from '../common/NotFoundOrError';
import { BenefitPlanForm } from './BenefitPlanForm';

export const BenefitPlanEdit = () => (
  <Edit
    mutationMode="pessimistic"
    redirect="list"
    redirectOnError={false}
    error={<EditNotFoundOrError what="app.benefit_plans.one" />}
  >
    <BenefitPlanForm />
  </Edit>
);
