import type { Migration } from 'kysely';
import { m0001Initial } from './0001-initial.js';
import { m0002IdpFederation } from './0002-idp-federation.js';

/**
 * Every migration, by name. Kysely applies them in name order and records each name once applied, so
 * names sort by version (`NNNN_description`) and never change. Add a new file and a line here; never edit
 * a released migration.
 */
export const migrations: Readonly<Record<string, Migration>> = {
  '0001_initial': m0001Initial,
  '0002_idp_federation': m0002IdpFederation,
};
