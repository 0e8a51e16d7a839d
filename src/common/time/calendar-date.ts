import { buildMessage, isISO8601, ValidateBy, ValidationOptions } from 'class-validator';

const SHAPE = /^[12]\d{3}-\d{2}-\d{2}$/;

/** `YYYY-MM-DD` naming a day that exists (no 2023-02-29, no 2025-04-31), in the years 1000 to 2999. */
export function isCalendarDate(value: unknown): value is string {
  return typeof value === 'string' && SHAPE.test(value) && isISO8601(value, { strict: true });
}

/** class-validator decorator for `isCalendarDate`. */
export function IsCalendarDate(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isCalendarDate',
      validator: {
        validate: (value: unknown) => isCalendarDate(value),
        defaultMessage: buildMessage(
          (prefix) => `${prefix}$property must be a real date as YYYY-MM-DD`,
          options,
        ),
      },
    },
    options,
  );
}
