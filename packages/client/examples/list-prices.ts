/**
 * Lists every trade customer of a store with its own prices, by SKU:
 *
 *   PRICEBOOK_URL=https://localhost:8443 PRICEBOOK_TOKEN=pk_….sk_… \
 *   PRICEBOOK_CA=./data/tls-cert.pem node list-prices.js
 *
 * PRICEBOOK_CA is the certificate to trust (a local server's self-signed one); leave it unset for a
 * server with a certificate the system trusts.
 */
import fs from 'node:fs';
import { Pricebook, PricebookError, type Customer, type TradePriceWithEmbeds } from '@pricebook/client';

const token = process.env.PRICEBOOK_TOKEN;
if (token === undefined) {
  console.error('Set PRICEBOOK_TOKEN to an API token (`pricebook keys create --store ID` prints one).');
  process.exit(2);
}
const caFile = process.env.PRICEBOOK_CA;
const pricebook = new Pricebook({
  baseUrl: process.env.PRICEBOOK_URL ?? 'https://localhost:8443',
  token,
  ...(caFile !== undefined && { ca: fs.readFileSync(caFile) }),
});

try {
  const customers: Customer[] = await pricebook.customers.list({ trade: true });
  for (const customer of customers) {
    const prices: TradePriceWithEmbeds[] = await pricebook.tradePrices.list({ customerId: customer.id });
    const list = prices.map((price) => `${price.sku} ${price.price.toFixed(2)}`).join(', ');
    console.log(`${customer.companyName ?? customer.email}: ${list === '' ? 'no trade prices' : list}`);
  }
} catch (error) {
  // The API's error body: its code and message (and, for a 422, every problem).
  if (error instanceof PricebookError) console.error(`Pricebook said ${error.status} (code ${error.code}): ${error.message}`);
  else console.error(error);
  process.exitCode = 1;
} finally {
  pricebook.close();
}
