import { ValidationError, ValidationPipe } from '@nestjs/common';
import { DomainError } from '../errors/domain-error';

function firstMessage(errors: ValidationError[], parent = ''): string {
  for (const error of errors) {
    const path = parent ? `${parent}.${error.property}` : error.property;
    const constraint = error.constraints && Object.values(error.constraints)[0];
    if (constraint) return constraint.replace(error.property, path);
    if (error.children?.length) return firstMessage(error.children, path);
  }
  return 'The request is not valid.';
}

/** Validates DTOs, strips unknown fields, and answers `invalid_parameter` naming the first bad field. */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: false,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    stopAtFirstError: true,
    exceptionFactory: (errors) => new DomainError('invalid_parameter', firstMessage(errors)),
  });
}
