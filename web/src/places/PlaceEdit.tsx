import {
  BooleanInput,
  Edit,
  SimpleForm,
  TextInput,
  maxLength,
  required,
  useRecordContext,
} from 'react-admin';
import { EditNotFoundOrError, stayOnError } from '../common/NotFoundOrError';

const Title = () => {
  const record = useRecordContext();
  return <>{record?.name ?? ''}</>;
};

export const PlaceEdit = () => (
  <Edit
    title={<Title />}
    mutationMode="pessimistic"
    redirect="show"
    {...stayOnError}
    error={<EditNotFoundOrError what="app.places.one" />}
  >
    <SimpleForm sx={{ maxWidth: 560 }}>
      <TextInput source="name" label="app.places.name" validate={[required(), maxLength(255)]} fullWidth />
      <BooleanInput source="active" label="app.places.active" helperText="app.places.active_help" />
    </SimpleForm>
  </Edit>
);
