import UploadFileIcon from '@mui/icons-material/UploadFile';
import { Button } from '@mui/material';
import {
  CreateButton,
  DataTable,
  SimpleList,
  TopToolbar,
  useCanAccess,
  useListContext,
  useTranslate,
} from 'react-admin';
import { ExportButton } from '../common/ExportButton';
import { Link } from 'react-router-dom';
import { EmptyState } from '../common/EmptyState';
import { ActiveField, CodeField, CpfField, LinkField } from '../common/fields';
import { formatCpf } from '../common/format';
import { ScreenList } from '../common/ScreenList';
import { Search } from '../common/Search';
import { useSmall } from '../common/useSmall';

interface Beneficiary {
  id: string;
  cpf: string;
  code: string;
  name: string;
  email: string | null;
  active: boolean;
  benefit_plan_code: string | null;
  /** 13 digits: the member number of the Wellhub-compatible access control (`gympass_id`). */
  member_number?: string;
}

const ImportButton = ({ variant }: { variant?: 'contained' | 'text' }) => {
  const translate = useTranslate();
  return (
    <Button
      component={Link}
      to="/beneficiaries/import"
      startIcon={<UploadFileIcon />}
      size="small"
      variant={variant}
    >
      {translate('app.beneficiaries.import')}
    </Button>
  );
};

const Actions = () => {
  const { canAccess } = useCanAccess({ resource: 'beneficiaries', action: 'create' });
  return (
    <TopToolbar>
      <ExportButton />
      {canAccess && <ImportButton />}
      {canAccess && <CreateButton />}
    </TopToolbar>
  );
};

const Empty = () => {
  const { canAccess } = useCanAccess({ resource: 'beneficiaries', action: 'create' });
  return (
    <EmptyState
      title="app.beneficiaries.none"
      hint="app.beneficiaries.none_hint"
      action={canAccess ? <ImportButton variant="contained" /> : undefined}
    />
  );
};

/** The table of the list; the member number column appears once the service sends it. */
const Table = ({ empty }: { empty: React.ReactElement }) => {
  const { data } = useListContext<Beneficiary>();
  const memberNumbers = data?.some((row) => row.member_number !== undefined);
  return (
    <DataTable rowClick="show" bulkActionButtons={false} empty={empty}>
      <DataTable.Col source="name" label="app.beneficiaries.name" disableSort>
        <LinkField source="name" />
      </DataTable.Col>
      <DataTable.Col source="cpf" label="app.beneficiaries.cpf" disableSort>
        <CpfField source="cpf" />
      </DataTable.Col>
      <DataTable.Col source="code" label="app.beneficiaries.code" disableSort>
        <CodeField source="code" />
      </DataTable.Col>
      {memberNumbers && (
        <DataTable.Col source="member_number" label="app.beneficiaries.member_number" disableSort>
          <CodeField source="member_number" />
        </DataTable.Col>
      )}
      <DataTable.Col source="email" label="app.beneficiaries.email" disableSort />
      <DataTable.Col source="benefit_plan_code" label="app.beneficiaries.benefit_plan" disableSort>
        <CodeField source="benefit_plan_code" />
      </DataTable.Col>
      <DataTable.Col source="active" label="app.beneficiaries.state" disableSort>
        <ActiveField />
      </DataTable.Col>
    </DataTable>
  );
};

export const BeneficiaryList = () => {
  const small = useSmall();
  const notFound = (
    <EmptyState title="app.beneficiaries.none_found" hint="app.beneficiaries.none_found_hint" />
  );
  return (
    <ScreenList
      filters={[
        <Search
          key="q"
          source="q"
          alwaysOn
          placeholder="app.beneficiaries.search"
          sx={{ minWidth: { sm: 340 } }}
        />,
      ]}
      actions={<Actions />}
      empty={<Empty />}
      perPage={25}
    >
      {small ? (
        <SimpleList<Beneficiary>
          linkType="show"
          empty={notFound}
          primaryText={(record) => record.name}
          secondaryText={(record) => `CPF ${formatCpf(record.cpf)} · ${record.code}`}
          tertiaryText={(record) => record.benefit_plan_code ?? ''}
        />
      ) : (
        <Table empty={notFound} />
      )}
    </ScreenList>
  );
};
