import type { Generated } from 'kysely';

/* A store and who may act in it: its API keys, its staff and their sessions, the server's shared secrets, and the `Idempotency-Key`s its creates claimed. */

export interface StoresTable {
  id: Generated<number>;
  name: string;
  created_at: string;
  /** 1: a change set is applied only once approved by someone who did not write it (migration 020). */
  require_approval: Generated<number>;
  /** ISO 4217 (migration 022). */
  currency: Generated<string>;
  /** How computed prices round to the currency: half-up, up or down (migration 022). */
  rounding_mode: Generated<string>;
}

export interface ApiKeysTable {
  id: Generated<number>;
  store_id: number;
  /** Public half of the credential, the Basic user name. */
  key: string;
  /** SHA-256 of the secret, hex. */
  secret_hash: string;
  /** Comma-separated scope names. */
  scopes: string;
  created_at: string;
  revoked_at: string | null;
  /** Chosen by whoever created the credential, to tell it apart; not unique; null: none. */
  name: string | null;
}

export interface StaffAccountsTable {
  id: Generated<number>;
  store_id: number;
  email: string;
  /** Lower-cased e-mail: unique over the whole server (one account per e-mail). */
  email_key: string;
  display_name: string;
  /** `viewer`, `editor`, `approver` or `owner`. */
  role: string;
  /** Self-describing scrypt hash: `scrypt$ln=15,r=8,p=1$<salt>$<key>` (base64). */
  password_hash: string;
  /** 1 until the member replaces the initial (or reset) password. */
  must_change_password: number;
  created_at: string;
  disabled_at: string | null;
  /** Raised by `staff reset` and `staff disable` (migration 031): part of the sign-in bucket's key and the device cookies' MAC. */
  sign_in_generation: Generated<number>;
}

export interface StaffSessionsTable {
  id: Generated<number>;
  /** SHA-256 of the session token, hex; the token itself is never stored. */
  token_hash: string;
  staff_id: number;
  store_id: number;
  created_at: string;
  /** Refreshed at most every minute (or tenth of the idle expiry): the idle expiry counts from it. */
  last_seen_at: string;
  ended_at: string | null;
}

/** Secrets the server makes once and every instance shares (migration 031): the device cookies' key. */
export interface ServerSecretsTable {
  name: string;
  /** base64url */
  value: string;
  created_at: string;
}

/**
 * A claimed `Idempotency-Key`: inserted first in the transaction of the create it guards and
 * completed with the response in that same transaction, so a key never outlives its records
 * and records never lack their key.
 */
export interface IdempotencyRecordsTable {
  store_id: number;
  /** The credential that sent the key; 0 for records kept from before keys were per credential. */
  key_id: number;
  key: string;
  /** SHA-256 of method, path and the raw body bytes. */
  fingerprint: string;
  status_code: number;
  /** The response body exactly as first sent. */
  response_body: string;
  created_at: string;
  /** Milliseconds since the epoch; past it the key may be used again. */
  expires_at: number;
  /** The path and id of the record the answer created (a single-record create); dropped with it. */
  path: string | null;
  record_id: number | null;
}

/** Stores, their API keys, staff and server-wide records: this area's tables, by name (composed into `Tables`). */
export interface StoreTables {
  stores: StoresTable;
  api_keys: ApiKeysTable;
  idempotency_records: IdempotencyRecordsTable;
  staff_accounts: StaffAccountsTable;
  staff_sessions: StaffSessionsTable;
  server_secrets: ServerSecretsTable;
}
