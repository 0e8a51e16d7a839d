import { DECORATORS } from '@nestjs/swagger';
import { getMetadataStorage } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';

/** The OpenAPI keywords a property's validation limits are written as. */
export interface DocumentedLimits {
  maxLength?: number;
  minLength?: number;
  maximum?: number;
  minimum?: number;
  pattern?: string;
  enum?: unknown[];
  maxItems?: number;
  minItems?: number;
  format?: string;
}

/**
 * What one class-validator constraint enforces, as OpenAPI says it (`@MaxLength(255)` → `maxLength: 255`,
 * `@IsIn([...])` → `enum`, `@Matches(re)` → `pattern`); nothing for a constraint without a bound (`@IsString`).
 */
export function limitsOf(metadata: Pick<ValidationMetadata, 'name' | 'constraints'>): DocumentedLimits {
  const [first, second] = (metadata.constraints ?? []) as unknown[];
  switch (metadata.name) {
    case 'maxLength':
      return { maxLength: first as number };
    case 'minLength':
      return { minLength: first as number };
    case 'isNotEmpty':
      return { minLength: 1 };
    case 'isLength':
      return { minLength: first as number, ...(typeof second === 'number' && { maxLength: second }) };
    case 'max':
      return { maximum: first as number };
    case 'min':
      return { minimum: first as number };
    case 'matches':
      return { pattern: first instanceof RegExp ? first.source : String(first) };
    case 'isIn':
      return { enum: [...(first as unknown[])] };
    case 'arrayMaxSize':
      return { maxItems: first as number };
    case 'arrayMinSize':
      return { minItems: first as number };
    case 'isEmail':
      return { format: 'email' };
    case 'isCalendarDate':
      return { format: 'date' };
    default:
      return {};
  }
}

/** Every class-validator constraint registered so far, by the class it belongs to. */
function registeredConstraints(): Map<object, ValidationMetadata[]> {
  // class-validator keeps them in one map and has no call that lists its classes.
  return (getMetadataStorage() as unknown as { validationMetadatas: Map<object, ValidationMetadata[]> })
    .validationMetadatas;
}

/**
 * Writes every limit the DTOs' class-validator decorators enforce into their Swagger properties, so that the
 * decorators that validate a field are also what the OpenAPI document says of it: a limit is written once,
 * where it is enforced. A property Swagger does not document is left alone (the document lists the fields a
 * DTO declares with `@ApiProperty`). Idempotent; run before the document is built.
 */
export function documentValidationLimits(): void {
  for (const [target, metadatas] of registeredConstraints()) {
    if (typeof target !== 'function') continue;
    const prototype = (target as { prototype: object }).prototype;
    const byProperty = new Map<string, DocumentedLimits>();
    for (const metadata of metadatas) {
      if (metadata.each) continue;
      const limits = limitsOf(metadata);
      if (Object.keys(limits).length === 0) continue;
      byProperty.set(metadata.propertyName, { ...byProperty.get(metadata.propertyName), ...limits });
    }
    for (const [property, limits] of byProperty) {
      const documented: object | undefined = Reflect.getMetadata(
        DECORATORS.API_MODEL_PROPERTIES,
        prototype,
        property,
      );
      if (!documented) continue;
      Reflect.defineMetadata(
        DECORATORS.API_MODEL_PROPERTIES,
        { ...documented, ...limits },
        prototype,
        property,
      );
    }
  }
}
