import { PAGE_SIZE, type Pricebook } from '@pricebook/client';

/**
 * Product ids of SKUs and customer ids of e-mail addresses, looked up over the API once each.
 * Many SKUs are looked up by walking the catalog when that takes fewer requests (a page of 100
 * products answers for all their SKUs) than asking for each (`GET /v1/products?sku=`).
 */
export class CatalogLookup {
  private readonly productOfSku = new Map<string, number | null>();
  private readonly customerOfEmail = new Map<string, number | null>();

  constructor(private readonly client: Pricebook) {}

  /** The product owning each SKU (its own or a variation's); SKUs of no product are left out. */
  async productIds(skus: Iterable<string>): Promise<Map<string, number>> {
    const wanted = [...new Set(skus)];
    const missing = wanted.filter((sku) => !this.productOfSku.has(sku));
    if (missing.length > 0) {
      const pages = Math.ceil((await this.client.products.count()) / PAGE_SIZE);
      if (pages < missing.length) {
        for await (const product of this.client.products.iterate({ fields: 'id,sku,variations' })) {
          if (product.sku !== null) this.productOfSku.set(product.sku, product.id);
          for (const variation of product.variations) this.productOfSku.set(variation.sku, product.id);
        }
      } else {
        for (const sku of missing) {
          const [product] = await this.client.products.list({ sku, count: 1, fields: 'id' });
          this.productOfSku.set(sku, product?.id ?? null);
        }
      }
      for (const sku of missing) if (!this.productOfSku.has(sku)) this.productOfSku.set(sku, null);
    }
    const found = new Map<string, number>();
    for (const sku of wanted) {
      const id = this.productOfSku.get(sku);
      if (id !== null && id !== undefined) found.set(sku, id);
    }
    return found;
  }

  /** The customer of each address (compared case-insensitively, as the API does); unknown ones are left out. */
  async customerIds(emails: Iterable<string>): Promise<Map<string, number>> {
    const found = new Map<string, number>();
    for (const email of new Set(emails)) {
      const key = email.toLowerCase();
      if (!this.customerOfEmail.has(key)) {
        const [customer] = await this.client.customers.list({ email, count: 1, fields: 'id' });
        this.customerOfEmail.set(key, customer?.id ?? null);
      }
      const id = this.customerOfEmail.get(key);
      if (id !== null && id !== undefined) found.set(email, id);
    }
    return found;
  }
}
