/**
 * Column options of an identifier: a value the service writes itself or checks as plain ASCII before any query
 * (UUIDs, delivery and event ids, token hashes, CPFs, check-in tokens, statuses). It is compared byte for byte
 * (`utf8mb4_bin`), in its index as in every statement. The schema's default, utf8mb4_unicode_ci, compares through
 * the Unicode collation algorithm character by character: every search of an index that leads with a place or a
 * subscription (all of a gym's rows share those 36 characters) walked them all at each step, about a twentieth
 * of MariaDB's CPU on the check-in path (docs/performance.md). The character set stays utf8mb4, so a value a
 * request sends in any characters never meets an illegal mix of collations: it only finds nothing. A join of
 * such a column with one in the default collation compares in `utf8mb4_bin` (a binary collation wins), so the
 * columns that hold one kind of id (every `place_id` and `places.id`) change together.
 */
export const IDENTIFIER = { charset: 'utf8mb4', collation: 'utf8mb4_bin' } as const;
