import { randomBytes } from 'node:crypto';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import type {
  AuthenticationResponseJSON,
  AuthenticatorTransport,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';
import QRCode from 'qrcode';
import type { FastifyBaseLogger } from 'fastify';
import type { MailMessage, Mailer } from '../mail/mailer.js';
import { MailDeliveryError } from '../mail/mailer.js';
import type { IdpAccount, IdpAccountsRepo } from './idp.accounts.repo.js';
import type { ChallengePurpose, IdpFactorsRepo, Passkey } from './idp.factors.repo.js';
import type { SecretBox } from './idp.secret-box.js';
import { deviceLabel, factorChangeMail, newDeviceMail } from './idp.security-mail.js';
import type { FactorChange } from './idp.security-mail.js';
import type { IdpSignInsRepo, SignInRecord } from './idp.sign-ins.repo.js';
import {
  cleanRecoveryCode,
  cleanTotpCode,
  newRecoveryCode,
  newTotpSecret,
  RECOVERY_CODE_COUNT,
  recoveryCodeHash,
  totpStepOf,
  totpUri,
} from './idp.totp.js';
import { CodedError } from '../../coded-error.js';

/** How long a WebAuthn challenge may be answered. */
export const CHALLENGE_TTL_MS = 5 * 60 * 1000;
const MAX_PASSKEYS = 20;

export interface WebAuthnSettings {
  /** The host name of PUBLIC_URL. */
  rpId: string;
  /** The origin of PUBLIC_URL: the only one whose assertions count. */
  origin: string;
}

export interface IdpSecurityDeps {
  accounts: IdpAccountsRepo;
  factors: IdpFactorsRepo;
  signIns: IdpSignInsRepo;
  box: SecretBox;
  mailer: Mailer;
  logger: FastifyBaseLogger;
  webauthn: WebAuthnSettings;
  /** The security page's address, for mails. */
  securityUrl: string;
  now: () => Date;
}

export interface SecurityStatus {
  totp: 'off' | 'pending' | 'on';
  recoveryCodesLeft: number;
  passkeys: Passkey[];
  sessions: SignInRecord[];
}

export interface TotpEnrolment {
  secret: string;
  uri: string;
  /** The URI as an SVG QR code (trusted markup made here). */
  qrSvg: string;
}

export type TotpCheck = 'ok' | 'wrong' | 'not-enabled';

/** A WebAuthn answer that did not verify; the reason is for logs, never for the page. */
export class PasskeyError extends CodedError {
  readonly code = 'PASSKEY_REFUSED';
  constructor(readonly reason: string) {
    super('The passkey could not be verified');
  }
}

function clientChallengeOf(response: { response?: { clientDataJSON?: unknown } }): string | null {
  const data = response.response?.clientDataJSON;
  if (typeof data !== 'string' || data.length > 4096) return null;
  try {
    const parsed = JSON.parse(Buffer.from(data, 'base64url').toString('utf8')) as { challenge?: unknown };
    return typeof parsed.challenge === 'string' ? parsed.challenge : null;
  } catch {
    return null;
  }
}

/**
 * The embedded provider's sign-in security: TOTP with recovery codes, passkeys (as a second factor and
 * for passwordless sign-in), the list of sessions, "sign out everywhere", and the owner's mails about
 * each of these.
 */
export function createIdpSecurity(deps: IdpSecurityDeps) {
  const { factors, signIns, box, now } = deps;

  function deliver(message: MailMessage, kind: string): void {
    deps.mailer.send(message).catch((error: unknown) => {
      const reason = error instanceof MailDeliveryError ? error.reason : 'failed';
      deps.logger.warn({ reason, kind }, 'security mail not delivered');
    });
  }

  async function notify(accountId: string, change: FactorChange): Promise<void> {
    const account = await deps.accounts.findById(accountId);
    if (account === undefined) return;
    deliver(factorChangeMail({ to: account.email, change, link: deps.securityUrl }), change);
  }

  async function newRecoveryCodes(accountId: string): Promise<string[]> {
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, () => newRecoveryCode());
    const hashes = codes.map((code) => recoveryCodeHash(accountId, code.replaceAll('-', '')));
    await factors.replaceRecoveryCodes(accountId, hashes, now());
    return codes;
  }

  async function secretOf(accountId: string, pending: boolean): Promise<string | null> {
    const record = await factors.totpOf(accountId);
    if (record === undefined || record.enabled === pending) return null;
    return box.open(record.secretSealed, accountId);
  }

  /** Keeps the challenge of `options` (base64url, as the browser echoes it in its client data). */
  async function issued<T extends { challenge: string }>(
    options: T,
    purpose: ChallengePurpose,
    binding: string,
    accountId: string | null,
  ): Promise<T> {
    const expiresAt = new Date(now().getTime() + CHALLENGE_TTL_MS);
    await factors.issueChallenge(options.challenge, purpose, binding, accountId, expiresAt);
    return options;
  }

  /**
   * The challenge the browser signed, taken out of the database (once, for its purpose and binding,
   * before it expires): `issued` says for which account, or is undefined when there was none.
   */
  async function takeChallenge(
    response: { response?: { clientDataJSON?: unknown } },
    purpose: ChallengePurpose,
    binding: string,
  ): Promise<{ sent: string; issued: { accountId: string | null } | undefined }> {
    const sent = clientChallengeOf(response);
    if (sent === null) throw new PasskeyError('no challenge');
    return { sent, issued: await factors.consumeChallenge(sent, purpose, binding, now()) };
  }

  /** Runs a WebAuthn check against `sent` at this site's origin and RP ID; any failure is a PasskeyError. */
  async function verified<T extends { verified: boolean }>(
    sent: string,
    verify: (expected: {
      expectedChallenge: string;
      expectedOrigin: string;
      expectedRPID: string;
    }) => Promise<T>,
  ): Promise<T & { verified: true }> {
    let verification: T;
    try {
      verification = await verify({
        expectedChallenge: sent,
        expectedOrigin: deps.webauthn.origin,
        expectedRPID: deps.webauthn.rpId,
      });
    } catch (error) {
      throw new PasskeyError(error instanceof Error ? error.message : 'invalid');
    }
    if (!verification.verified) throw new PasskeyError('not verified');
    return verification as T & { verified: true };
  }

  return {
    async status(accountId: string): Promise<SecurityStatus> {
      const record = await factors.totpOf(accountId);
      return {
        totp: record === undefined ? 'off' : record.enabled ? 'on' : 'pending',
        recoveryCodesLeft: await factors.recoveryCodesLeft(accountId),
        passkeys: await factors.passkeysOf(accountId),
        sessions: await signIns.listLive(accountId, now()),
      };
    },

    /**
     * What the second step of a password sign-in offers, or null when there is none. Two-step
     * verification is on with the authenticator app; a passkey then serves as the second step too.
     * Passkeys alone sign in on their own but add no step after the password: with recovery codes
     * only for TOTP, a lost passkey would otherwise lock its owner out for good.
     */
    async secondFactorsOf(accountId: string): Promise<{ totp: boolean; passkeys: boolean } | null> {
      const record = await factors.totpOf(accountId);
      if (record?.enabled !== true) return null;
      const passkeys = (await factors.passkeysOf(accountId)).length > 0;
      return { totp: true, passkeys };
    },

    /** A new secret for enrolment (replacing an unconfirmed one); null when TOTP is already on. */
    async startTotp(account: IdpAccount): Promise<TotpEnrolment | null> {
      const secret = newTotpSecret();
      if (!(await factors.startTotp(account.id, box.seal(secret, account.id), now()))) return null;
      return this.enrolment(account);
    },

    /** The pending enrolment again (a wrong confirmation code shows the same QR code). */
    async enrolment(account: IdpAccount): Promise<TotpEnrolment | null> {
      const secret = await secretOf(account.id, true);
      if (secret === null) return null;
      const uri = totpUri(secret, account.email);
      const qrSvg = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 1 });
      return { secret, uri, qrSvg };
    },

    /** Confirms the pending enrolment with a code; returns the recovery codes (shown once), or null. */
    async confirmTotp(accountId: string, input: string): Promise<string[] | null> {
      const code = cleanTotpCode(input);
      const secret = await secretOf(accountId, true);
      if (code === null || secret === null) return null;
      const step = totpStepOf(secret, code, now());
      if (step === null || !(await factors.enableTotp(accountId, step, now()))) return null;
      const codes = await newRecoveryCodes(accountId);
      await notify(accountId, 'totp-added');
      return codes;
    },

    /**
     * Checks a code at sign-in or to turn TOTP off. A code counts once: its time step is recorded
     * atomically, and a code of that step or an earlier one is refused afterwards.
     */
    async checkTotp(accountId: string, input: string): Promise<TotpCheck> {
      const secret = await secretOf(accountId, false);
      if (secret === null) return 'not-enabled';
      const code = cleanTotpCode(input);
      if (code === null) return 'wrong';
      const step = totpStepOf(secret, code, now());
      if (step === null) return 'wrong';
      return (await factors.acceptStep(accountId, step)) ? 'ok' : 'wrong';
    },

    async disableTotp(accountId: string): Promise<void> {
      if (await factors.deleteTotp(accountId)) {
        await factors.deleteRecoveryCodes(accountId);
        await notify(accountId, 'totp-removed');
      }
    },

    async renewRecoveryCodes(accountId: string): Promise<string[]> {
      const codes = await newRecoveryCodes(accountId);
      await notify(accountId, 'recovery-codes-renewed');
      return codes;
    },

    /** Spends a recovery code (once); tells the owner. */
    async useRecoveryCode(accountId: string, input: string): Promise<boolean> {
      const code = cleanRecoveryCode(input);
      if (code === null) return false;
      const used = await factors.useRecoveryCode(accountId, recoveryCodeHash(accountId, code), now());
      if (used) await notify(accountId, 'recovery-code-used');
      return used;
    },

    async registrationOptions(
      account: IdpAccount,
      binding: string,
    ): Promise<PublicKeyCredentialCreationOptionsJSON> {
      const existing = await factors.passkeysOf(account.id);
      const options = await generateRegistrationOptions({
        rpName: 'Coffer',
        rpID: deps.webauthn.rpId,
        userName: account.email,
        userDisplayName: account.name,
        userID: new TextEncoder().encode(account.id),
        challenge: randomBytes(32),
        attestationType: 'none',
        excludeCredentials: existing.map((p) => ({
          id: p.id,
          transports: p.transports as AuthenticatorTransport[],
        })),
        // Discoverable, so the same passkey also signs in without the email and password.
        authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
      });
      return issued(options, 'register', binding, account.id);
    },

    async register(account: IdpAccount, binding: string, response: RegistrationResponseJSON, name: string) {
      const { sent, issued } = await takeChallenge(response, 'register', binding);
      if (issued?.accountId !== account.id) throw new PasskeyError('unknown or used challenge');
      if ((await factors.passkeysOf(account.id)).length >= MAX_PASSKEYS) throw new PasskeyError('too many');
      const { registrationInfo } = await verified(sent, (expected) =>
        verifyRegistrationResponse({ response, ...expected, requireUserVerification: true }),
      );
      const { credential } = registrationInfo;
      if ((await factors.findPasskey(credential.id)) !== undefined)
        throw new PasskeyError('already registered');
      await factors.addPasskey(
        {
          id: credential.id,
          accountId: account.id,
          publicKey: Buffer.from(credential.publicKey).toString('base64url'),
          counter: credential.counter,
          transports: credential.transports ?? [],
          name,
        },
        now(),
      );
      await notify(account.id, 'passkey-added');
    },

    async removePasskey(accountId: string, id: string): Promise<void> {
      if (await factors.removePasskey(accountId, id)) await notify(accountId, 'passkey-removed');
    },

    /**
     * Options for `navigator.credentials.get`: the account's passkeys (second factor), or any
     * discoverable passkey of this site (passwordless, `accountId` null).
     */
    async authenticationOptions(
      binding: string,
      accountId: string | null,
    ): Promise<PublicKeyCredentialRequestOptionsJSON> {
      const allow = accountId === null ? [] : await factors.passkeysOf(accountId);
      const options = await generateAuthenticationOptions({
        rpID: deps.webauthn.rpId,
        challenge: randomBytes(32),
        allowCredentials: allow.map((p) => ({
          id: p.id,
          transports: p.transports as AuthenticatorTransport[],
        })),
        userVerification: accountId === null ? 'required' : 'preferred',
      });
      return issued(options, 'authenticate', binding, accountId);
    },

    /**
     * Verifies an assertion against a challenge issued to `binding`: the challenge is taken out of the
     * database first (a replayed assertion finds it gone), then the signature, origin, RP ID and the
     * signature counter are checked, and the counter is moved by compare-and-set. Returns the account.
     */
    async authenticate(binding: string, response: AuthenticationResponseJSON): Promise<string> {
      const { sent, issued } = await takeChallenge(response, 'authenticate', binding);
      if (issued === undefined) throw new PasskeyError('unknown or used challenge');
      const passkey = typeof response.id === 'string' ? await factors.findPasskey(response.id) : undefined;
      if (passkey === undefined) throw new PasskeyError('unknown credential');
      if (issued.accountId !== null && issued.accountId !== passkey.accountId) {
        throw new PasskeyError('credential of another account');
      }
      const { authenticationInfo } = await verified(sent, (expected) =>
        verifyAuthenticationResponse({
          response,
          ...expected,
          credential: {
            id: passkey.id,
            publicKey: Buffer.from(passkey.publicKey, 'base64url'),
            counter: passkey.counter,
            transports: passkey.transports,
          },
          requireUserVerification: issued.accountId === null,
        }),
      );
      const { newCounter } = authenticationInfo;
      if (!(await factors.updatePasskeyCounter(passkey.id, passkey.counter, newCounter, now()))) {
        throw new PasskeyError('counter moved by another sign-in');
      }
      return passkey.accountId;
    },

    /** A provider session was used by a browser; mails the owner when that browser is new to the account. */
    async sawSession(input: {
      sessionUid: string;
      accountId: string;
      deviceHash: string;
      userAgent: string;
    }) {
      const { newDevice } = await signIns.record(input, now());
      if (!newDevice) return;
      const account = await deps.accounts.findById(input.accountId);
      if (account === undefined) return;
      deliver(
        newDeviceMail({ to: account.email, device: deviceLabel(input.userAgent), link: deps.securityUrl }),
        'new-device',
      );
    },

    /**
     * Ends every session, grant, code and refresh token of the account, and makes the API refuse its
     * access tokens issued until now.
     */
    async signOutEverywhere(accountId: string): Promise<void> {
      await signIns.setCutoff(accountId, now());
      await deps.accounts.endSignIns(accountId);
      await notify(accountId, 'signed-out-everywhere');
    },
  };
}

export type IdpSecurity = ReturnType<typeof createIdpSecurity>;
