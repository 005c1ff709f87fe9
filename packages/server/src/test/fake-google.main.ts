/**
 * The "Google" of the browser tests: a second OpenID provider on loopback that signs in one fixed
 * person at once. Started by the Playwright config next to the app, never by the app itself.
 *
 *   FAKE_GOOGLE_PORT=8182 FAKE_GOOGLE_REDIRECT_URI=http://localhost:8181/idp/federation/google/callback \
 *   FAKE_GOOGLE_CLIENT_SECRET=… node dist/test/fake-google.main.js
 */
import { startFakeGoogle } from './idp-harness.js';

const port = Number(process.env.FAKE_GOOGLE_PORT ?? 8182);
const redirectUri =
  process.env.FAKE_GOOGLE_REDIRECT_URI ?? 'http://localhost:8181/idp/federation/google/callback';
const google = await startFakeGoogle(redirectUri, {
  port,
  clientSecret: process.env.FAKE_GOOGLE_CLIENT_SECRET,
});
if (process.env.FAKE_GOOGLE_EMAIL !== undefined) google.user.email = process.env.FAKE_GOOGLE_EMAIL;
console.log(`fake Google at ${google.issuer} (client ${google.clientId})`);
const stop = (): void => {
  void google.close().then(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
