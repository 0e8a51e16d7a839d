import { isValidCpf, normalizeCpf } from '../../common/domain/cpf';
import { invalidParameter } from '../../common/errors/domain-error';
import { Message, message, MessageKey, MessageParams } from '../../common/i18n/messages';
import { isCalendarDate } from '../../common/time/calendar-date';

export const MAX_BULK_ROWS = 10_000;

/** A bulk row after validation; `undefined` fields were absent and keep the current value on update. */
export interface BeneficiaryRow {
  index: number;
  cpf: string;
  name: string;
  benefitPlanCode: string;
  email?: string | null;
  phone?: string | null;
  birthday?: string | null;
  active?: boolean;
  code?: string;
}

export interface RowError {
  index: number;
  label: 'invalid_parameter';
  message: Message;
}

export interface BulkImportResult {
  created: number;
  updated: number;
  errors: RowError[];
}

/**
 * Why a row is left out. Not an Error: it never leaves this file, and the stack trace an Error captures cost
 * 30 ms of a blocked event loop for an import of 10,000 refused rows.
 */
class RowProblem {
  constructor(readonly detail: Message) {}
}

const problem = (key: MessageKey, params?: MessageParams) => new RowProblem(message(key, params));

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const CODE = /^[A-Z0-9]{8}$/;

type Json = Record<string, unknown>;

function optionalText(row: Json, field: string, max: number, pattern?: RegExp): string | null | undefined {
  const value = row[field];
  if (value === undefined) return undefined;
  if (value === null) return null;
  if (typeof value !== 'string') throw problem('field.mustBeString', { field });
  if (value.length > max) throw problem('field.tooLong', { field, max });
  if (pattern && !pattern.test(value)) throw problem('field.invalid', { field });
  return value;
}

function optionalDate(row: Json, field: string): string | null | undefined {
  const value = optionalText(row, field, 10);
  if (value !== undefined && value !== null && !isCalendarDate(value))
    throw problem('field.calendarDate', { field });
  return value;
}

function requiredText(row: Json, field: string, max: number): string {
  const value = row[field];
  if (typeof value !== 'string' || value.trim() === '') throw problem('field.requiredString', { field });
  if (value.length > max) throw problem('field.tooLong', { field, max });
  return value.trim();
}

function parseRow(raw: unknown, index: number): BeneficiaryRow {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw problem('bulk.rowNotObject');
  const row = raw as Json;
  const cpf = normalizeCpf(requiredText(row, 'cpf', 20));
  if (!isValidCpf(cpf)) throw problem('field.cpfCheckDigits', { field: 'cpf' });
  const active = row.active ?? undefined;
  if (active !== undefined && typeof active !== 'boolean')
    throw problem('field.mustBeBoolean', { field: 'active' });
  const code = optionalText(row, 'code', 8, CODE);
  return {
    index,
    cpf,
    name: requiredText(row, 'name', 255),
    benefitPlanCode: requiredText(row, 'benefit_plan_code', 32).toUpperCase(),
    email: optionalText(row, 'email', 255, EMAIL),
    phone: optionalText(row, 'phone', 32),
    birthday: optionalDate(row, 'birthday'),
    active,
    code: code ?? undefined,
  };
}

/**
 * The rows of a bulk import's body, `{beneficiaries: [...]}` with at most MAX_BULK_ROWS rows. Read by hand,
 * as `validateRows` reads each row, rather than by the validation pipe: class-transformer would walk every
 * value of up to 10,000 rows first (0.1 s of a blocked event loop for the largest body the route takes) only
 * for the rows to be read here again.
 */
export function bulkRowsOf(body: unknown): unknown[] {
  const rows = (body as { beneficiaries?: unknown }).beneficiaries;
  if (!Array.isArray(rows)) throw invalidParameter('validation.isArray', { field: 'beneficiaries' });
  if (rows.length > MAX_BULK_ROWS) {
    throw invalidParameter('validation.bulkTooManyRows', { field: 'beneficiaries', max: MAX_BULK_ROWS });
  }
  return rows;
}

/**
 * Validates each row on its own: good rows go on, bad rows are reported by index. A CPF repeated in the
 * request keeps its first row; later ones are reported.
 */
export function validateRows(
  rows: unknown[],
  benefitPlanCodes: ReadonlySet<string>,
): { valid: BeneficiaryRow[]; errors: RowError[] } {
  const valid: BeneficiaryRow[] = [];
  const errors: RowError[] = [];
  const seen = new Map<string, number>();
  const seenCodes = new Map<string, number>();
  rows.forEach((raw, index) => {
    try {
      const row = parseRow(raw, index);
      if (!benefitPlanCodes.has(row.benefitPlanCode))
        throw problem('controlPanel.benefitPlanMissing', { code: row.benefitPlanCode });
      const earlier = seen.get(row.cpf);
      if (earlier !== undefined) throw problem('bulk.cpfRepeated', { index: earlier });
      const earlierCode = row.code === undefined ? undefined : seenCodes.get(row.code);
      if (earlierCode !== undefined) throw problem('bulk.codeRepeated', { index: earlierCode });
      seen.set(row.cpf, index);
      if (row.code !== undefined) seenCodes.set(row.code, index);
      valid.push(row);
    } catch (error) {
      if (!(error instanceof RowProblem)) throw error;
      errors.push({ index, label: 'invalid_parameter', message: error.detail });
    }
  });
  return { valid, errors };
}
