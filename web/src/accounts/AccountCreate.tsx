import { useState } from 'react';
import {
  Create,
  SelectInput,
  SimpleForm,
  TextInput,
  email,
  maxLength,
  required,
  useRedirect,
} from 'react-admin';
import type { Account, PasswordLink } from '../types';
import { PasswordLinkDialog } from './PasswordLinkDialog';
import { ROLE_CHOICES, scopeFields } from './roles';
import { ScopeInputs } from './ScopeInputs';

/** Invites someone: the account is created and its one-time link shown to be passed on. */
export const AccountCreate = () => {
  const redirect = useRedirect();
  const [invited, setInvited] = useState<(Account & { password_link: PasswordLink }) | null>(null);
  return (
    <>
      <Create
        title="app.accounts.invite_title"
        transform={scopeFields}
        mutationOptions={{ onSuccess: (data: Account & { password_link: PasswordLink }) => setInvited(data) }}
      >
        <SimpleForm sx={{ maxWidth: 560 }} defaultValues={{ role: 'gym', scope: 'places' }}>
          <TextInput
            source="name"
            label="app.accounts.name"
            validate={[required(), maxLength(255)]}
            fullWidth
          />
          <TextInput
            source="email"
            label="app.accounts.email"
            type="email"
            validate={[required(), email()]}
            fullWidth
          />
          <SelectInput
            source="role"
            label="app.accounts.role"
            choices={ROLE_CHOICES}
            validate={required()}
            helperText="app.accounts.role_help"
          />
          <ScopeInputs />
        </SimpleForm>
      </Create>
      <PasswordLinkDialog
        link={invited?.password_link ?? null}
        purpose="invitation"
        name={invited?.name ?? ''}
        onClose={() => {
          setInvited(null);
          redirect('list', 'accounts');
        }}
      />
    </>
  );
};
