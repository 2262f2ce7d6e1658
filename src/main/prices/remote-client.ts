import fs from 'node:fs';
import { Pricebook, PricebookError } from '@pricebook/client';
import { UsageError } from '../usage-error.js';

/** Flags of every `pricebook prices` command; each falls back to its environment variable. */
export interface RemoteOptions {
  url?: string;
  token?: string;
  cacert?: string;
}

export const REMOTE_ENV = { url: 'PRICEBOOK_URL', token: 'PRICEBOOK_TOKEN', cacert: 'PRICEBOOK_CACERT' } as const;

/** The API client the flags (or the environment) describe; a missing or malformed setting is a UsageError (exit 2). */
export function remoteClient(options: RemoteOptions, env: NodeJS.ProcessEnv): Pricebook {
  const url = nonEmpty(options.url) ?? nonEmpty(env[REMOTE_ENV.url]);
  const token = nonEmpty(options.token) ?? nonEmpty(env[REMOTE_ENV.token]);
  const cacert = nonEmpty(options.cacert) ?? nonEmpty(env[REMOTE_ENV.cacert]);
  if (url === undefined) throw new UsageError(`no API address: set ${REMOTE_ENV.url} or pass --url (https://host:port, e.g. https://localhost:8443)`);
  if (token === undefined) throw new UsageError(`no API token: set ${REMOTE_ENV.token} or pass --token (the token \`pricebook keys create\` printed)`);
  let base: URL;
  try {
    base = new URL(url);
  } catch {
    throw new UsageError(`--url / ${REMOTE_ENV.url} is not a URL: '${url}'`);
  }
  if (base.protocol !== 'https:') throw new UsageError(`--url / ${REMOTE_ENV.url} must be an https:// address, got '${url}'`);
  let ca: Buffer | undefined;
  if (cacert !== undefined) {
    try {
      ca = fs.readFileSync(cacert);
    } catch (error) {
      throw new UsageError(`cannot read the --cacert / ${REMOTE_ENV.cacert} file '${cacert}': ${(error as Error).message}`);
    }
  }
  return new Pricebook({ baseUrl: base.toString(), token, ...(ca !== undefined && { ca }) });
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

/** TLS failures that mean the server's certificate is not trusted (a self-signed one without --cacert). */
const UNTRUSTED_CERTIFICATE = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);
const UNREACHABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH']);

/** An error of a remote command, said in terms of what to do about it. */
export function describeRemoteError(error: unknown, options: RemoteOptions, env: NodeJS.ProcessEnv): unknown {
  if (error instanceof PricebookError) return new DetailedError(`the API answered ${error.status} (code ${error.code}): ${error.message}`, problemLines(error));
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const url = options.url ?? env[REMOTE_ENV.url];
  if (code !== undefined && UNTRUSTED_CERTIFICATE.has(code)) {
    return new Error(
      `the certificate of ${url} is not trusted (${(error as Error).message}); pass the server's certificate with --cacert FILE (or ${REMOTE_ENV.cacert})`,
    );
  }
  if (code !== undefined && UNREACHABLE.has(code)) return new Error(`cannot reach ${url}: ${(error as Error).message}`);
  return error;
}

/** Problems of an answer printed, at most; the API lists up to 1000. */
const PRINTED_PROBLEMS = 20;

/** An error whose message is followed by lines of detail (each printed on a line of its own, indented). */
export class DetailedError extends Error {
  constructor(
    message: string,
    readonly details: readonly string[],
  ) {
    super(message);
  }
}

/** Every problem of a 422 as a line (`field: message`, `item 3, field: message`), the first 20 and how many more. */
function problemLines(error: PricebookError): string[] {
  const problems = error.errors ?? [];
  const lines = problems.slice(0, PRINTED_PROBLEMS).map((problem) => {
    const where = [problem.index === undefined ? undefined : `item ${problem.index}`, problem.field ?? undefined]
      .filter((part) => part !== undefined)
      .join(', ');
    return `${where === '' ? '' : `${where}: `}${problem.message}`;
  });
  if (problems.length > PRINTED_PROBLEMS) lines.push(`… and ${problems.length - PRINTED_PROBLEMS} more`);
  return lines;
}
