import { Edit, useRecordContext } from 'react-admin';
import { EditNotFoundOrError, stayOnError } from '../common/NotFoundOrError';
import { BeneficiaryForm } from './BeneficiaryForm';

const Title = () => {
  const record = useRecordContext();
  return <>{record?.name ?? ''}</>;
};

export const BeneficiaryEdit = () => (
  <Edit
    title={<Title />}
    mutationMode="pessimistic"
    redirect="show"
    {...stayOnError}
    error={<EditNotFoundOrError what="app.beneficiaries.one" />}
  >
    <BeneficiaryForm />
  </Edit>
);
