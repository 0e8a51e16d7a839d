/**
 * What reading a check-in body costs per request: the hand parser the check-in routes use
 * (`parseTrackUsageRequest`) against the same rules written as class-validator DTOs and run through the
 * service's own validation pipe (class-transformer, then class-validator), on the bodies clients send (flat,
 * envelope) and on a refused one. Rounds of each alternate, so a loaded machine weighs on both alike; time is
 * the process's CPU time (`process.cpuUsage`), not the wall clock. Run with
 * `npx ts-node -T scripts/body-validation-cost.ts` (ROUNDS, PER_ROUND to change the sample).
 */
import 'reflect-metadata';
import { Transform, Type } from 'class-transformer';
import {
  Equals,
  IsIn,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { DomainError } from '../src/common/errors/domain-error';
import { createValidationPipe } from '../src/common/http/validation.pipe';
import {
  IDENTIFIER_TYPES,
  MAX_FIELD_LENGTH,
  parseTrackUsageRequest,
} from '../src/modules/eligibility/track-usage-request';

const ROUNDS = Number(process.env.ROUNDS ?? 10);
const PER_ROUND = Number(process.env.PER_ROUND ?? 20_000);

const trimmed = ({ value }: { value: unknown }) =>
  typeof value === 'string' ? value.trim() || undefined : value === null ? undefined : value;
const lowerCase = ({ value }: { value: unknown }) =>
  typeof value === 'string' ? value.trim().toLowerCase() : value;

/** The attributes as DTO rules: what rule 1 checks, in the hand parser's order. */
class AttributesCandidate {
  @IsIn(IDENTIFIER_TYPES, { message: 'field.oneOf' })
  @MaxLength(MAX_FIELD_LENGTH, { message: 'field.tooLong' })
  @IsString({ message: 'field.mustBeString' })
  @Transform(lowerCase)
  type: string;

  @Matches(/^(\d{11}|[A-Za-z0-9]{1,32}|\d{6})$/, { message: 'field.invalid' })
  @MaxLength(MAX_FIELD_LENGTH, { message: 'field.tooLong' })
  @IsString({ message: 'field.mustBeString' })
  @Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' ? value.trim().replace(/[\s.-]/g, '') : value,
  )
  identifier: string;

  @IsOptional()
  @MaxLength(MAX_FIELD_LENGTH, { message: 'field.tooLong' })
  @IsString({ message: 'field.mustBeString' })
  @Transform(trimmed)
  service_provider_code?: string;

  @IsOptional()
  @MaxLength(MAX_FIELD_LENGTH, { message: 'field.tooLong' })
  @IsString({ message: 'field.mustBeString' })
  @Transform(trimmed)
  service_provider_plan_code?: string;
}

class DataCandidate {
  @IsOptional()
  @Equals('track_usage', { message: 'trackUsage.dataType' })
  type?: string;

  @ValidateNested()
  @IsObject({ message: 'trackUsage.attributesShape' })
  @Type(() => AttributesCandidate)
  attributes: AttributesCandidate;
}

/** Flat or enveloped: the flat fields are checked only when there is no `data`. */
class TrackUsageCandidate extends AttributesCandidate {
  @IsOptional()
  @ValidateNested()
  @IsObject({ message: 'trackUsage.dataShape' })
  @Type(() => DataCandidate)
  data?: DataCandidate;
}
for (const field of ['type', 'identifier'] as const) {
  ValidateIf((body: TrackUsageCandidate) => body.data === undefined)(TrackUsageCandidate.prototype, field);
}

const BODIES = {
  flat: { type: 'cpf', identifier: '123.456.008-96', service_provider_code: 'demopinh' },
  envelope: {
    data: {
      type: 'track_usage',
      attributes: {
        type: 'cpf',
        identifier: '12345600896',
        service_provider_code: 'DEMOPINH',
        service_provider_plan_code: 'DPINH002',
      },
    },
  },
  refused: { type: 'passport', identifier: 'X1' },
};

const pipe = createValidationPipe();
const metadata = { type: 'body' as const, metatype: TrackUsageCandidate, data: '' };

async function viaPipe(body: object): Promise<void> {
  try {
    await pipe.transform(body, metadata);
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
  }
}

function viaParser(body: object): void {
  try {
    parseTrackUsageRequest(body);
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
  }
}

/** CPU microseconds per call of `run`, over `count` calls. */
async function cpuPerCall(count: number, run: () => unknown): Promise<number> {
  const start = process.cpuUsage();
  for (let i = 0; i < count; i++) {
    const result = run();
    if (result instanceof Promise) await result;
  }
  const used = process.cpuUsage(start);
  return (used.user + used.system) / count;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function main(): Promise<void> {
  // The same body must get the same verdict both ways, or the comparison means nothing.
  for (const [name, body] of Object.entries(BODIES)) {
    const parsed = (() => {
      try {
        parseTrackUsageRequest(structuredClone(body));
        return 'accepted';
      } catch {
        return 'refused';
      }
    })();
    const piped = await pipe.transform(structuredClone(body), metadata).then(
      () => 'accepted',
      () => 'refused',
    );
    if (parsed !== piped) throw new Error(`${name}: the parser ${parsed} it, the pipe ${piped} it`);
  }
  console.log(`rounds ${ROUNDS} × ${PER_ROUND} calls each; CPU µs per request (median of rounds)`);
  for (const [name, body] of Object.entries(BODIES)) {
    await cpuPerCall(PER_ROUND, () => viaParser(body));
    await cpuPerCall(PER_ROUND, () => viaPipe(body));
    const parser: number[] = [];
    const dto: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      parser.push(await cpuPerCall(PER_ROUND, () => viaParser(body)));
      dto.push(await cpuPerCall(PER_ROUND, () => viaPipe(body)));
    }
    const [p, d] = [median(parser), median(dto)];
    console.log(
      `${name.padEnd(9)} hand parser ${p.toFixed(2)} µs   DTO pipeline ${d.toFixed(2)} µs   ` +
        `ratio ${(d / p).toFixed(1)}×`,
    );
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
