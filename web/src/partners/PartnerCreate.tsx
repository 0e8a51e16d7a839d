import { Create, SimpleForm, TextInput, maxLength, required } from 'react-admin';

export const PartnerCreate = () => (
  <Create redirect="show">
    <SimpleForm sx={{ maxWidth: 560 }}>
      <TextInput
        source="name"
        label="app.partners.name"
        helperText="app.partners.name_help"
        validate={[required(), maxLength(255)]}
        fullWidth
      />
    </SimpleForm>
  </Create>
);
