/**
 * Ids as long as those the bench's tessera issues (`TGT-<n>-<43 random>-bench`,
 * `ST-<n>-<4 tag + 22 random>-bench`), for the yardsticks that answer or send one without issuing it.
 */
export const TGT_SIZED_ID = `TGT-1-${'x'.repeat(43)}-bench`;
export const ST_SIZED_ID = `ST-1-${'x'.repeat(26)}-bench`;
