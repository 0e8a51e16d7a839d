import { Create } from 'react-admin';
import { BeneficiaryForm } from './BeneficiaryForm';

export const BeneficiaryCreate = () => (
  <Create redirect="show">
    <BeneficiaryForm creating />
  </Create>
);
