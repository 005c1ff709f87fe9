import { readFileSync } from 'node:fs';

interface PackageJson {
  version: string;
}

/** The server's version, from its package.json (read once at start-up). */
export const SERVER_VERSION: string = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as PackageJson
).version;
