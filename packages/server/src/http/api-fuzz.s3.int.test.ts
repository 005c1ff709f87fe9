/** The schema-driven API fuzz (`test/api-fuzz.cases.ts`) on SQLite with the S3 store (s3rver), where the store's errors are another source of 5xx. */
import { describeApiFuzz } from '../test/api-fuzz.cases.js';

describeApiFuzz('sqlite+s3');
