import { ValidateIf } from 'class-validator';

/**
 * The field may be left out, but not sent as null: for fields that cannot be cleared. (`@IsOptional()`
 * also lets null through, which a PATCH would then write into a NOT NULL column.)
 */
export const OmitOrValidate = () => ValidateIf((_object, value) => value !== undefined);

/** The largest value of the `int unsigned` columns that tiers and limits are stored in. */
export const MAX_UNSIGNED_INT = 4_294_967_295;
