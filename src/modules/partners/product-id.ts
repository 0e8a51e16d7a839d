/**
 * A gym plan's `product_id` in the Wellhub-compatible access control: its id plus 100000, so products are
 * numbered from 100001 upwards, like gyms (`places.gym_id`), and never reused (plan ids are not). Derived, not
 * stored: a table has one AUTO_INCREMENT column, and plans already number themselves.
 */
export const PRODUCT_ID_OFFSET = 100_000;

export function productIdOf(planId: number): number {
  return planId + PRODUCT_ID_OFFSET;
}

/** The plan id of a product id; undefined for a number that is no product id. */
export function planIdOf(productId: number): number | undefined {
  return Number.isSafeInteger(productId) && productId > PRODUCT_ID_OFFSET
    ? productId - PRODUCT_ID_OFFSET
    : undefined;
}
