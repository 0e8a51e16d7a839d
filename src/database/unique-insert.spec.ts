import { EntityMetadata, QueryFailedError } from 'typeorm';
import { duplicatedProperty } from './unique-insert';

const metadata = {
  indices: [
    { isUnique: true, name: 'IDX_cpf', columns: [{ propertyName: 'cpf' }] },
    { isUnique: true, name: 'IDX_code', columns: [{ propertyName: 'code' }] },
    { isUnique: false, name: 'IDX_plan', columns: [{ propertyName: 'benefitPlanId' }] },
  ],
  uniques: [],
} as unknown as EntityMetadata;

const failure = (code: string, sqlMessage: string) =>
  new QueryFailedError('INSERT …', [], Object.assign(new Error(sqlMessage), { code, sqlMessage }));

describe('duplicatedProperty', () => {
  it('names the column of the unique index, as MariaDB and MySQL 8 write it', () => {
    expect(
      duplicatedProperty(failure('ER_DUP_ENTRY', "Duplicate entry 'X' for key 'IDX_code'"), metadata),
    ).toBe('code');
    expect(
      duplicatedProperty(
        failure('ER_DUP_ENTRY', "Duplicate entry '1' for key 'beneficiaries.IDX_cpf'"),
        metadata,
      ),
    ).toBe('cpf');
  });

  it('answers unknown for a key it does not know, and undefined for other errors', () => {
    expect(
      duplicatedProperty(failure('ER_DUP_ENTRY', "Duplicate entry '1' for key 'PRIMARY'"), metadata),
    ).toBe('unknown');
    expect(duplicatedProperty(failure('ER_LOCK_DEADLOCK', 'Deadlock found'), metadata)).toBeUndefined();
    expect(duplicatedProperty(new Error('boom'), metadata)).toBeUndefined();
  });
});
