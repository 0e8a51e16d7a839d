import LockResetIcon from '@mui/icons-material/LockReset';
import { Button } from '@mui/material';
import { useState } from 'react';
import {
  BooleanInput,
  Edit,
  SaveButton,
  SelectInput,
  SimpleForm,
  TextInput,
  Toolbar,
  maxLength,
  required,
  useDataProvider,
  useNotify,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { EditNotFoundOrError, stayOnError } from '../common/NotFoundOrError';
import type { ConsoleDataProvider } from '../dataProvider';
import type { Account, PasswordLink } from '../types';
import { PasswordLinkDialog } from './PasswordLinkDialog';
import { ROLE_CHOICES, scopeFields } from './roles';
import { ScopeInputs } from './ScopeInputs';
import { handler } from '../common/handler';

const ResetLinkButton = () => {
  const account = useRecordContext<Account>();
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const [link, setLink] = useState<PasswordLink | null>(null);
  if (!account) return null;
  const create = async () => {
    try {
      setLink(await dataProvider.passwordResetLink(account.id));
    } catch (error) {
      notify((error as Error).message, { type: 'error' });
    }
  };
  return (
    <>
      <Button startIcon={<LockResetIcon />} onClick={handler(create)}>
        {translate('app.accounts.new_reset_link')}
      </Button>
      <PasswordLinkDialog link={link} purpose="reset" name={account.name} onClose={() => setLink(null)} />
    </>
  );
};

const EditToolbar = () => (
  <Toolbar sx={{ gap: 1, flexWrap: 'wrap' }}>
    <SaveButton />
    <ResetLinkButton />
  </Toolbar>
);

const Title = () => {
  const account = useRecordContext<Account>();
  return <>{account?.name ?? ''}</>;
};

/** Scope from the record: a chain account has a partner, the others listed places. */
const withScope = (account: Account) => ({
  ...account,
  scope: account.partner_id !== null ? 'partner' : 'places',
});

export const AccountEdit = () => (
  <Edit
    title={<Title />}
    mutationMode="pessimistic"
    transform={scopeFields}
    {...stayOnError}
    error={<EditNotFoundOrError what="app.accounts.one" />}
    queryOptions={{ ...stayOnError.queryOptions, select: withScope as never }}
  >
    <SimpleForm sx={{ maxWidth: 560 }} toolbar={<EditToolbar />}>
      <TextInput source="email" label="app.accounts.email" disabled fullWidth />
      <TextInput source="name" label="app.accounts.name" validate={[required(), maxLength(255)]} fullWidth />
      <SelectInput source="role" label="app.accounts.role" choices={ROLE_CHOICES} validate={required()} />
      <ScopeInputs />
      <BooleanInput source="active" label="app.accounts.active" helperText="app.accounts.active_help" />
    </SimpleForm>
  </Edit>
);
