import type { PricedSkuInput } from '../contract/priced-sku.js';
import type { Product } from '../contract/products.js';
import type { Pricebook } from '@pricebook/client/browser';
import { h, momentFromInput, momentToInput, replaceChildren } from './dom.js';
import { type FieldSpec, type Form, numberOrText, priceOrText } from './forms.js';

/** The fields of a price with its quantity break and validity window, named as the API names them. */
export const PRICE_FIELDS: readonly FieldSpec[] = [
  { name: 'sku', label: 'SKU', hint: 'The product’s or a variation’s SKU, exactly (case matters).' },
  { name: 'price', label: 'Price', inputmode: 'decimal', hint: 'At most 4 decimals: 6.5 or 6,5' },
  { name: 'minQuantity', label: 'From quantity', inputmode: 'numeric', value: '1', hint: 'Applies to lines of at least this many units.' },
  { name: 'validFrom', label: 'Valid from', type: 'datetime-local', hint: 'Empty: no start (valid already). Your local time.' },
  { name: 'validUntil', label: 'Valid until', type: 'datetime-local', hint: 'Empty: never ends. Exclusive.' },
];

/** A list entry's own quantity rule, named as the API names it (errors land at `quantityRule.minimum` and so on). */
export const QUANTITY_RULE_FIELDS: readonly FieldSpec[] = [
  {
    name: 'quantityRule.increment',
    label: 'Case pack',
    inputmode: 'numeric',
    hint: 'Lines this entry prices order multiples of this. All three empty: the SKU’s rule.',
  },
  { name: 'quantityRule.minimum', label: 'Fewest units', inputmode: 'numeric', hint: 'Empty: the case pack.' },
  { name: 'quantityRule.maximum', label: 'Most units', inputmode: 'numeric', hint: 'Empty: no most.' },
];

/** The entry's own rule the form asks for: absent when all three are empty (sent as typed otherwise: the API judges it). */
export function quantityRuleFromForm(form: Form): { quantityRule?: Record<string, unknown> } {
  const rule = Object.fromEntries(
    (['increment', 'minimum', 'maximum'] as const).flatMap((name) => {
      const value = form.value(`quantityRule.${name}`);
      return value === '' ? [] : [[name, numberOrText(value)]];
    }),
  );
  return Object.keys(rule).length === 0 ? {} : { quantityRule: rule };
}

/** A quantity rule as a table cell: "12–480, ×12"; none: the SKU's. */
export function quantityRuleLabel(rule: { minimum: number; maximum: number | null; increment: number } | null): string {
  if (rule === null) return 'the SKU’s';
  return `${rule.minimum}${rule.maximum === null ? '+' : `–${rule.maximum}`}${rule.increment === 1 ? '' : `, ×${rule.increment}`}`;
}

/** A bulk item names the product the SKU belongs to; the page asks it as the SKU. */
export const PRICE_ALIASES = { productId: 'sku' } as const;

/**
 * The price the form describes, for `productId`. The page sends what was typed and lets the API
 * judge it: a price with 5 decimals, or text, comes back as a 422 on `price`.
 */
export function priceFromForm(form: Form, productId: number | undefined): Partial<Record<keyof PricedSkuInput, unknown>> {
  return {
    productId,
    sku: form.value('sku') === '' ? undefined : form.value('sku'),
    price: priceOrText(form.value('price')),
    minQuantity: numberOrText(form.value('minQuantity')),
    validFrom: momentFromInput(form.value('validFrom')),
    validUntil: momentFromInput(form.value('validUntil')),
  };
}

/** A record's price fields as the form's fields show them (to edit it). */
export function priceValues(record: {
  sku: string;
  price: number;
  minQuantity: number;
  validFrom: string | null;
  validUntil: string | null;
}): Record<string, string> {
  return {
    sku: record.sku,
    price: String(record.price),
    minQuantity: String(record.minQuantity),
    validFrom: momentToInput(record.validFrom),
    validUntil: momentToInput(record.validUntil),
  };
}

/** A record as an input item again (for a replace, which names every price it keeps). */
export function priceInputOf(record: PricedSkuInput): PricedSkuInput {
  const { productId, sku, price, minQuantity, validFrom, validUntil } = record;
  return { productId, sku, price, minQuantity, validFrom, validUntil };
}

/**
 * The product owning `sku` (its own SKU or a variation's), found with the products list's
 * `sku=` filter; undefined when the store has none.
 */
export async function productOfSku(api: Pricebook, sku: string): Promise<Pick<Product, 'id' | 'title'> | undefined> {
  const [product] = await api.products.list({ sku, count: 1, fields: 'id,title' });
  return product;
}

/** Wait after the last keystroke before asking for suggestions. */
const SUGGEST_AFTER_MS = 250;

/**
 * Suggestions for a form's `sku` field as it is typed: the store's SKUs containing the text
 * (`GET /v1/skus?contains=`, A–Z in either case), each with its product's title, in the
 * browser's own list (a `datalist`). The field still takes any text: the API judges the SKU.
 */
export function suggestSkus(api: Pricebook, form: Form, signal: AbortSignal): void {
  const control = form.control('sku');
  const list = h('datalist', { id: `${control.id}-suggestions` });
  control.setAttribute('list', list.id);
  control.after(list);
  let timer: ReturnType<typeof setTimeout> | undefined;
  let asked = '';
  control.addEventListener('input', () => {
    clearTimeout(timer);
    const text = control.value.trim();
    if (text === '' || text === asked || (control instanceof HTMLInputElement && control.readOnly)) return;
    timer = setTimeout(() => {
      asked = text;
      api.skus
        .search({ contains: text, count: 20 })
        .then((found) => {
          if (signal.aborted || control.value.trim() !== text) return;
          replaceChildren(
            list,
            ...found.map((item) => h('option', { value: item.sku, label: `${item.title}${item.variationId === null ? '' : ' (variation)'}` })),
          );
        })
        // Suggestions are a help: without them the field works as before.
        .catch(() => undefined);
    }, SUGGEST_AFTER_MS);
  });
  signal.addEventListener('abort', () => clearTimeout(timer));
}
