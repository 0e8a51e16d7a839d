import { formatInZone } from '../../common/time/business-time';
import { AccountWithPlaces } from './accounts.repository';
import { AccountDto } from './dto/account.dto';

export function toAccountDto(account: AccountWithPlaces, timeZone: string): AccountDto {
  return {
    id: account.id,
    email: account.email,
    name: account.name,
    role: account.role,
    partner_id: account.partnerId,
    place_ids: account.placeIds,
    active: account.active,
    created_at: formatInZone(account.createdAt, timeZone),
    last_login_at: account.lastLoginAt ? formatInZone(account.lastLoginAt, timeZone) : null,
  };
}

/** E-mails are compared in lower case, without surrounding spaces. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}
