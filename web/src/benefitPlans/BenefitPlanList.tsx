import {
  CreateButton,
  DataTable,
  FunctionField,
  SimpleList,
  TopToolbar,
  useCanAccess,
  useTranslate,
} from 'react-admin';
import { EmptyState } from '../common/EmptyState';
import { ActiveField, CodeField, LinkField } from '../common/fields';
import { ScreenList } from '../common/ScreenList';
import { Search } from '../common/Search';
import { useSmall } from '../common/useSmall';

interface BenefitPlan {
  id: string;
  code: string;
  name: string;
  tier: number;
  monthly_visit_limit: number | null;
  meal_plan: boolean;
  appointment: boolean;
  active: boolean;
}

const Actions = () => {
  const { canAccess } = useCanAccess({ resource: 'benefit-plans', action: 'create' });
  return <TopToolbar>{canAccess && <CreateButton />}</TopToolbar>;
};

const Empty = () => {
  const { canAccess } = useCanAccess({ resource: 'benefit-plans', action: 'create' });
  return (
    <EmptyState
      title="app.benefit_plans.none"
      hint="app.benefit_plans.none_hint"
      action={canAccess ? <CreateButton variant="contained" /> : undefined}
    />
  );
};

export const BenefitPlanList = () => {
  const small = useSmall();
  const translate = useTranslate();
  const { canAccess: canEdit } = useCanAccess({ resource: 'benefit-plans', action: 'edit' });
  const limit = (plan: BenefitPlan) =>
    plan.monthly_visit_limit === null
      ? translate('app.benefit_plans.unlimited')
      : translate('app.benefit_plans.per_month', { smart_count: plan.monthly_visit_limit });
  return (
    <ScreenList
      filters={[<Search key="q" source="q" alwaysOn placeholder="app.benefit_plans.search" />]}
      actions={<Actions />}
      empty={<Empty />}
      perPage={25}
    >
      {small ? (
        <SimpleList<BenefitPlan>
          linkType={canEdit ? 'edit' : false}
          primaryText={(plan) => `${plan.name} (${plan.code})`}
          secondaryText={(plan) => `${translate('app.benefit_plans.tier')} ${plan.tier} · ${limit(plan)}`}
          tertiaryText={() => <ActiveField />}
        />
      ) : (
        <DataTable rowClick={canEdit ? 'edit' : false} bulkActionButtons={false}>
          <DataTable.Col source="code" label="app.benefit_plans.code" disableSort>
            {canEdit ? <LinkField source="code" to="edit" /> : <CodeField source="code" />}
          </DataTable.Col>
          <DataTable.Col source="name" label="app.benefit_plans.name" disableSort />
          <DataTable.NumberCol source="tier" label="app.benefit_plans.tier" disableSort />
          <DataTable.Col
            source="monthly_visit_limit"
            label="app.benefit_plans.monthly_visit_limit"
            disableSort
          >
            <FunctionField<BenefitPlan> render={limit} />
          </DataTable.Col>
          <DataTable.Col source="meal_plan" label="app.benefit_plans.meal_plan" disableSort>
            <FunctionField<BenefitPlan>
              render={(plan) => translate(plan.meal_plan ? 'ra.boolean.true' : 'ra.boolean.false')}
            />
          </DataTable.Col>
          <DataTable.Col source="appointment" label="app.benefit_plans.appointment" disableSort>
            <FunctionField<BenefitPlan>
              render={(plan) => translate(plan.appointment ? 'ra.boolean.true' : 'ra.boolean.false')}
            />
          </DataTable.Col>
          <DataTable.Col source="active" label="app.benefit_plans.state" disableSort>
            <ActiveField />
          </DataTable.Col>
        </DataTable>
      )}
    </ScreenList>
  );
};
