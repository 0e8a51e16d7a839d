import { buildMessage, isEmail, ValidateBy, ValidationOptions } from 'class-validator';

/**
 * An e-mail address, as `@IsEmail()` checks it, that is also well-formed Unicode: the validator behind
 * `@IsEmail()` decodes the address and throws on a lone surrogate (`\uD800`), which would answer 500; here it
 * is just an invalid address. Same constraint name (`isEmail`), so the same sentence names the field.
 */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function isEmailAddress(value: unknown): boolean {
  return typeof value === 'string' && !LONE_SURROGATE.test(value) && isEmail(value);
}

export function IsEmailAddress(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isEmail',
      validator: {
        validate: (value: unknown) => isEmailAddress(value),
        defaultMessage: buildMessage((prefix) => `${prefix}$property must be an email`, options),
      },
    },
    options,
  );
}
