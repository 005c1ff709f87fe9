import type { DB, IsoTimestamp } from '../db/schema.js';

/** Tables of migration 0007 (second factors and sign-ins of the embedded provider). */

export interface IdpTotpTable {
  account_id: string;
  /** `v1.<iv>.<ciphertext+tag>` (base64url): AES-256-GCM under the `idp-totp` server secret. */
  secret_enc: string;
  /** Null while enrolment waits for its first code. */
  enabled_at: IsoTimestamp | null;
  /** The newest time step a code was accepted for; a code of this step or an earlier one is refused. */
  last_step: number | null;
  created_at: IsoTimestamp;
}

export interface IdpRecoveryCodesTable {
  /** SHA-256 (hex) of `accountId:code`. */
  code_hash: string;
  account_id: string;
  used_at: IsoTimestamp | null;
  created_at: IsoTimestamp;
}

export interface IdpPasskeysTable {
  /** The credential id, base64url. */
  id: string;
  account_id: string;
  /** COSE public key, base64url. */
  public_key: string;
  counter: number;
  /** JSON list of transports the authenticator named, or null. */
  transports: string | null;
  name: string;
  created_at: IsoTimestamp;
  last_used_at: IsoTimestamp | null;
}

export interface IdpWebauthnChallengesTable {
  /** The challenge, base64url (random, 32 bytes). */
  id: string;
  purpose: 'register' | 'authenticate';
  /** What the challenge was issued to: an interaction uid or a provider session uid. */
  binding: string;
  account_id: string | null;
  expires_at: IsoTimestamp;
}

export interface IdpSignInsTable {
  /** The provider session's `uid`. */
  session_uid: string;
  account_id: string;
  /** SHA-256 (hex) of the browser's device cookie. */
  device_hash: string;
  user_agent: string;
  created_at: IsoTimestamp;
  last_seen_at: IsoTimestamp;
}

export interface IdpSessionCutoffsTable {
  account_id: string;
  /** Access tokens issued (`iat`) before this instant are refused. */
  valid_after: IsoTimestamp;
}

// A type alias, not an interface: Kysely's `withTables` wants a type with an implicit index signature.
// eslint-disable-next-line @typescript-eslint/consistent-type-definitions
export type IdpFactorTables = {
  idp_totp: IdpTotpTable;
  idp_recovery_codes: IdpRecoveryCodesTable;
  idp_passkeys: IdpPasskeysTable;
  idp_webauthn_challenges: IdpWebauthnChallengesTable;
  idp_sign_ins: IdpSignInsTable;
  idp_session_cutoffs: IdpSessionCutoffsTable;
};

export type IdpFactorsDB = DB & IdpFactorTables;
