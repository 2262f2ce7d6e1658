import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config/config.js';

export interface TlsPair {
  cert: string;
  key: string;
  /** Where the certificate came from, for the start-up log. */
  source: string;
}

const CERT_FILE = 'tls-cert.pem';
const KEY_FILE = 'tls-key.pem';

/**
 * The configured PEM pair, or a self-signed one for localhost kept in the data dir (made on
 * first start, reused after).
 */
export async function loadTlsPair(config: Config): Promise<TlsPair> {
  if (config.tlsCertFile !== undefined && config.tlsKeyFile !== undefined) {
    return { cert: fs.readFileSync(config.tlsCertFile, 'utf8'), key: fs.readFileSync(config.tlsKeyFile, 'utf8'), source: config.tlsCertFile };
  }
  const certPath = path.join(config.dataDir, CERT_FILE);
  const keyPath = path.join(config.dataDir, KEY_FILE);
  if (fs.existsSync(certPath) && fs.existsSync(keyPath)) {
    return { cert: fs.readFileSync(certPath, 'utf8'), key: fs.readFileSync(keyPath, 'utf8'), source: certPath };
  }
  const pair = await generateSelfSigned();
  fs.mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  fs.writeFileSync(keyPath, pair.key, { mode: 0o600 });
  fs.writeFileSync(certPath, pair.cert);
  return { ...pair, source: `${certPath} (generated, self-signed for localhost)` };
}

export async function generateSelfSigned(): Promise<{ cert: string; key: string }> {
  const notBeforeDate = new Date(Date.now() - 60_000);
  const notAfterDate = new Date(notBeforeDate.getTime() + 825 * 24 * 3600 * 1000);
  // Loaded only when a pair is generated: configured certificates spare the memory of its X.509 stack.
  const { generate } = await import('selfsigned');
  const result = await generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notBeforeDate,
    notAfterDate,
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
          { type: 7, ip: '::1' },
        ],
      },
    ],
  });
  return { cert: result.cert, key: result.private };
}
