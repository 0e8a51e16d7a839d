import { getMetadataStorage } from 'class-validator';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DomainError } from '../errors/domain-error';
import { isMessageKey, translate } from '../i18n/messages';
import { CreateBenefitPlanDto } from '../../modules/control-panel/dto/benefit-plans.dto';
import { createValidationPipe } from './validation.pipe';

/** Every DTO file of the service, so that their decorators register their metadata. */
function dtoFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return dtoFiles(path);
    return /\.dto\.ts$/.test(name) ? [path] : [];
  });
}

const WITHOUT_SENTENCE = ['conditionalValidation', 'nestedValidation', 'whitelistValidation', 'isDefined'];

describe('validation messages', () => {
  beforeAll(async () => {
    for (const file of dtoFiles(join(__dirname, '..', '..'))) await import(file);
  });

  it('has a sentence in the catalogue for every constraint of every DTO', () => {
    const metadata = (
      getMetadataStorage() as unknown as {
        validationMetadatas: Map<
          unknown,
          { name?: string; type: string; message?: unknown; propertyName: string }[]
        >;
      }
    ).validationMetadatas;
    const missing: string[] = [];
    let checked = 0;
    for (const entries of metadata.values()) {
      for (const entry of entries) {
        if (WITHOUT_SENTENCE.includes(entry.type) || WITHOUT_SENTENCE.includes(entry.name ?? '')) continue;
        checked++;
        const own = entry.message;
        const key = typeof own === 'string' ? own : `validation.${entry.name}`;
        if (!isMessageKey(key)) missing.push(`${entry.propertyName}: ${key}`);
      }
    }
    expect(checked).toBeGreaterThan(50);
    expect(missing).toEqual([]);
  });

  it('names the field and the bound, in every language', async () => {
    const pipe = createValidationPipe();
    const refusal = (await pipe
      .transform(
        { code: 'GOLD', name: 'x'.repeat(300), tier: 1 },
        { type: 'body', metatype: CreateBenefitPlanDto },
      )
      .catch((error: unknown) => error)) as DomainError;
    expect(refusal).toBeInstanceOf(DomainError);
    expect(refusal.label).toBe('invalid_parameter');
    expect(translate('en', refusal.detail)).toBe('name must be at most 255 characters');
    expect(translate('pt-BR', refusal.detail)).toBe('name deve ter no máximo 255 caracteres');
    expect(translate('es', refusal.detail)).toBe('name debe tener como máximo 255 caracteres');
  });
});
