import { ValidationError, ValidationPipe } from '@nestjs/common';
import { getMetadataStorage } from 'class-validator';
import { DomainError } from '../errors/domain-error';
import { isMessageKey, labelMessage, Message, message, MessageKey, MessageParams } from '../i18n/messages';

/**
 * The bound a failed constraint names (`@MaxLength(255)` → max 255, `@IsIn([...])` → the values), for the sentence
 * that explains it.
 */
function constraintParams(error: ValidationError, name: string): MessageParams {
  const target = error.target?.constructor;
  if (!target) return {};
  const metadata = getMetadataStorage()
    .getTargetValidationMetadatas(target, '', true, false)
    .find((candidate) => candidate.propertyName === error.property && candidate.name === name);
  const bound = metadata?.constraints?.[0] as unknown;
  if (Array.isArray(bound)) return { values: bound.join(', ') };
  if (typeof bound !== 'number') return {};
  return name === 'min' ? { min: bound } : { max: bound };
}

/**
 * A DTO's own message is a catalogue key (`{ message: 'validation.notBlank' }`); otherwise the constraint's
 * name picks `validation.<name>`, and a constraint without a sentence of its own says the field is not valid.
 */
function constraintMessage(error: ValidationError, field: string): Message | undefined {
  const [name, text] = Object.entries(error.constraints ?? {})[0] ?? [];
  if (name === undefined) return undefined;
  const params = { ...constraintParams(error, name), field };
  if (isMessageKey(text)) return message(text, params);
  const key = `validation.${name}`;
  return isMessageKey(key) ? message(key as MessageKey, params) : message('validation.invalid', { field });
}

function firstProblem(errors: ValidationError[], parent = ''): Message | undefined {
  for (const error of errors) {
    const field = parent ? `${parent}.${error.property}` : error.property;
    const found = constraintMessage(error, field) ?? firstProblem(error.children ?? [], field);
    if (found) return found;
  }
  return undefined;
}

/** Validates DTOs, strips unknown fields, and answers `invalid_parameter` naming the first bad field. */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: false,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    stopAtFirstError: true,
    // The target (the DTO instance) tells which class's constraint failed, for its bound; never sent out.
    validationError: { target: true, value: false },
    exceptionFactory: (errors) =>
      new DomainError('invalid_parameter', firstProblem(errors) ?? labelMessage('invalid_parameter')),
  });
}
