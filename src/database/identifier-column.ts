/**
 * Column options of an identifier: a value the service writes itself or checks as plain ASCII before any query
 * (UUIDs, delivery and event ids, token hashes, CPFs, check-in tokens, a delivery's status). It is compared byte
 * for byte (`utf8mb4_bin`), in its index as in every statement. The schema's default, utf8mb4_unicode_ci,
 * compares through the Unicode collation algorithm character by character, and an index that leads with a place
 * or a subscription (all of a gym's rows share those 36 characters) walked them all at each step of every
 * search: at a fixed rate of registers MariaDB spent about 6 % less CPU per register once they compared byte for
 * byte (docs/performance.md). The character set stays utf8mb4, so a value a request sends in any characters
 * never meets an illegal mix of collations: it only finds nothing. A comparison of such a column with one in
 * the default collation is made in `utf8mb4_bin` (a binary collation wins), where the other column's index does
 * not serve: the columns joined with one another (every `place_id` and `places.id`, every `subscription_id` and
 * `webhook_subscriptions.id`, `webhook_attempts.delivery_id` and `webhook_deliveries.id`) change together.
 */
export const IDENTIFIER = { charset: 'utf8mb4', collation: 'utf8mb4_bin' } as const;
