import {
  BooleanInput,
  DateInput,
  ReferenceInput,
  SelectInput,
  SimpleForm,
  TextInput,
  email,
  maxLength,
  regex,
  required,
} from 'react-admin';
import { formatCpf } from '../common/format';

const emptyToNull = (value: string) => (value === '' ? null : value);

export const BeneficiaryForm = ({ creating }: { creating?: boolean }) => (
  <SimpleForm sx={{ maxWidth: 560 }} defaultValues={creating ? { active: true } : undefined}>
    <TextInput
      source="cpf"
      label="app.beneficiaries.cpf"
      helperText={creating ? 'app.beneficiaries.cpf_help' : false}
      disabled={!creating}
      format={creating ? undefined : formatCpf}
      validate={creating ? required() : undefined}
      fullWidth
    />
    <TextInput
      source="name"
      label="app.beneficiaries.name"
      validate={[required(), maxLength(255)]}
      fullWidth
    />
    <TextInput
      source="email"
      label="app.beneficiaries.email"
      type="email"
      validate={email()}
      parse={emptyToNull}
      fullWidth
    />
    <TextInput
      source="phone"
      label="app.beneficiaries.phone"
      parse={emptyToNull}
      validate={maxLength(32)}
      fullWidth
    />
    <DateInput source="birthday" label="app.beneficiaries.birthday" parse={emptyToNull} />
    <ReferenceInput source="benefit_plan_code" reference="benefit-plans" perPage={200}>
      <SelectInput
        label="app.beneficiaries.benefit_plan"
        optionText={(plan: { code: string; name: string }) => `${plan.name} (${plan.code})`}
        optionValue="code"
        validate={required()}
        fullWidth
      />
    </ReferenceInput>
    {creating && (
      <TextInput
        source="code"
        label="app.beneficiaries.code_optional"
        helperText="app.beneficiaries.code_help"
        validate={regex(/^[A-Z0-9]{8}$/, 'app.validation.eight_characters')}
        parse={(value: string) => (value ? value.toUpperCase() : null)}
        fullWidth
      />
    )}
    <BooleanInput
      source="active"
      label="app.beneficiaries.active"
      helperText="app.beneficiaries.active_help"
    />
  </SimpleForm>
);
