/** The schema-driven API fuzz (`test/api-fuzz.cases.ts`) on PostgreSQL (the `TEST_DATABASE_URL` server, PGlite without it) with the fs store. */
import { describeApiFuzz } from '../test/api-fuzz.cases.js';

describeApiFuzz('postgres');
