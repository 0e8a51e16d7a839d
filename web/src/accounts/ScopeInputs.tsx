import {
  AutocompleteArrayInput,
  AutocompleteInput,
  FormDataConsumer,
  RadioButtonGroupInput,
  ReferenceArrayInput,
  ReferenceInput,
  required,
} from 'react-admin';
import { SCOPE_CHOICES } from './roles';

/** A gym account reaches either a whole partner (chain) or the places listed. */
export const ScopeInputs = () => (
  <FormDataConsumer>
    {({ formData }) =>
      formData.role === 'gym' && (
        <>
          <RadioButtonGroupInput
            source="scope"
            label="app.accounts.scope"
            choices={SCOPE_CHOICES}
            validate={required()}
          />
          {formData.scope === 'partner' && (
            <ReferenceInput source="partner_id" reference="partners">
              <AutocompleteInput
                label="app.accounts.partner"
                optionText="name"
                filterToQuery={(q) => ({ q })}
                validate={required()}
                fullWidth
              />
            </ReferenceInput>
          )}
          {formData.scope === 'places' && (
            <ReferenceArrayInput source="place_ids" reference="places">
              <AutocompleteArrayInput
                label="app.accounts.places"
                optionText="name"
                filterToQuery={(q) => ({ q })}
                validate={required()}
                fullWidth
              />
            </ReferenceArrayInput>
          )}
        </>
      )
    }
  </FormDataConsumer>
);
