import { Edit, SimpleForm, TextInput, maxLength, required, useRecordContext } from 'react-admin';
import { EditNotFoundOrError, stayOnError } from '../common/NotFoundOrError';

const Title = () => {
  const record = useRecordContext();
  return <>{record?.name ?? ''}</>;
};

/** A partner's name; its key stays (rotate it on its page). */
export const PartnerEdit = () => (
  <Edit
    title={<Title />}
    mutationMode="pessimistic"
    redirect="show"
    {...stayOnError}
    error={<EditNotFoundOrError what="app.partners.one" />}
  >
    <SimpleForm sx={{ maxWidth: 560 }}>
      <TextInput
        source="name"
        label="app.partners.name"
        helperText="app.partners.rename_help"
        validate={[required(), maxLength(255)]}
        fullWidth
      />
    </SimpleForm>
  </Edit>
);
