/** The schema-driven API fuzz (`test/api-fuzz.cases.ts`) on SQLite (a file) with the fs store. */
import { describeApiFuzz } from '../test/api-fuzz.cases.js';

describeApiFuzz('sqlite');
