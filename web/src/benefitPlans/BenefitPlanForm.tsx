import {
  BooleanInput,
  NumberInput,
  SimpleForm,
  TextInput,
  maxLength,
  minValue,
  regex,
  required,
} from 'react-admin';

export const BenefitPlanForm = ({ creating }: { creating?: boolean }) => (
  <SimpleForm
    sx={{ maxWidth: 560 }}
    defaultValues={creating ? { meal_plan: false, appointment: false, monthly_visit_limit: null } : undefined}
  >
    <TextInput
      source="code"
      label="app.benefit_plans.code"
      helperText="app.benefit_plans.code_help"
      disabled={!creating}
      validate={
        creating
          ? [required(), regex(/^[A-Za-z0-9_-]{1,32}$/, 'app.validation.benefit_plan_code')]
          : undefined
      }
      fullWidth
    />
    <TextInput
      source="name"
      label="app.benefit_plans.name"
      validate={[required(), maxLength(255)]}
      fullWidth
    />
    <NumberInput
      source="tier"
      label="app.benefit_plans.tier"
      helperText="app.benefit_plans.tier_help"
      validate={[required(), minValue(0)]}
      min={0}
    />
    <NumberInput
      source="monthly_visit_limit"
      label="app.benefit_plans.monthly_visit_limit"
      helperText="app.benefit_plans.monthly_visit_limit_help"
      validate={minValue(1)}
      min={1}
    />
    <BooleanInput source="meal_plan" label="app.benefit_plans.meal_plan" />
    <BooleanInput source="appointment" label="app.benefit_plans.appointment" />
    {!creating && (
      <BooleanInput
        source="active"
        label="app.benefit_plans.active"
        helperText="app.benefit_plans.active_help"
      />
    )}
  </SimpleForm>
);
