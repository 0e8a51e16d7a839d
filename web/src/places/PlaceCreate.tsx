import {
  AutocompleteInput,
  BooleanInput,
  Create,
  ReferenceInput,
  SimpleForm,
  TextInput,
  maxLength,
  regex,
  required,
} from 'react-admin';

export const PlaceCreate = () => (
  <Create redirect="show">
    <SimpleForm defaultValues={{ active: true }} sx={{ maxWidth: 560 }}>
      <ReferenceInput source="partner_id" reference="partners">
        <AutocompleteInput
          label="app.places.partner"
          optionText="name"
          filterToQuery={(q) => ({ q })}
          validate={required()}
          fullWidth
        />
      </ReferenceInput>
      <TextInput source="name" label="app.places.name" validate={[required(), maxLength(255)]} fullWidth />
      <TextInput
        source="code"
        label="app.places.code_optional"
        helperText="app.places.code_help"
        validate={regex(/^[A-Z0-9]{8}$/, 'app.validation.eight_characters')}
        parse={(value: string) => (value ? value.toUpperCase() : null)}
        fullWidth
      />
      <BooleanInput source="active" label="app.places.active" />
    </SimpleForm>
  </Create>
);
