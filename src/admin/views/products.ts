import type { Product } from '../../contract/products.js';
import { h, replaceChildren, table } from '../dom.js';
import { Form } from '../forms.js';
import { money } from '../money.js';
import { quantityRuleLabel } from '../price-input.js';
import { alertBox, pager, section, type View } from '../view.js';
import { historySection } from './history.js';

/** Products per page. */
const PAGE = 20;

/**
 * The catalog, read only (it is changed through the API): products 20 a page, or the one
 * holding a SKU; each opens with its variations and their prices.
 */
export const productsView: View = async (context) => {
  context.heading('Products');
  const alert = alertBox();
  const body = h('div', {}, h('p', {}, 'Loading products…'));
  let offset = 0;
  const filter = new Form({
    label: 'Find a product',
    submitLabel: 'Find',
    fields: [{ name: 'sku', label: 'SKU', hint: 'The product holding this SKU (its own or a variation’s), exactly; empty: all.' }],
    actions: [h('button', { type: 'reset' }, 'Show all')],
    grid: true,
    onSubmit: async () => {
      offset = 0;
      await load();
    },
  });
  filter.element.addEventListener('reset', () => {
    offset = 0;
    setTimeout(() => void load().catch((error: unknown) => alert.show(error)));
  });
  const load = async () => {
    const sku = filter.value('sku') === '' ? undefined : filter.value('sku');
    const [page, total] = await Promise.all([context.api.products.list({ sku, count: PAGE, offset }), context.api.products.count({ sku })]);
    replaceChildren(
      body,
      page.length === 0
        ? h('p', {}, sku === undefined ? 'No products yet.' : `No product holds the SKU ${sku}.`)
        : table(
            'Products',
            ['Title', 'SKU', 'Price', 'Variations', 'Units a line', 'Active'],
            page.map((product) => [
              h('a', { href: `#/products/${product.id}` }, product.title),
              product.sku ?? '—',
              money(product.price),
              String(product.variations.length),
              product.quantityRule === null ? 'Any' : quantityRuleLabel(product.quantityRule),
              product.active ? 'Yes' : 'No',
            ]),
          ),
      pager({
        offset,
        count: PAGE,
        total,
        shown: page.length,
        label: 'Products',
        onPage: (next) => {
          offset = next;
          void load().catch((error: unknown) => alert.show(error));
        },
      }),
    );
  };
  context.main.append(
    h('p', { class: 'notice' }, 'The catalog is kept through the API (or an import from your shop); here it is read only.'),
    filter.element,
    alert,
    body,
  );
  await load();
};

/** One product: its fields, its variations with the price each charges, and the history of its prices (all its SKUs, or one). */
export const productView: View = async (context, idText = '') => {
  const heading = context.heading(`Product ${idText}`);
  const product: Product = await context.api.products.get(Number(idText));
  heading.textContent = product.title;
  document.title = `${product.title} · Pricebook admin`;
  context.main.append(
    h(
      'dl',
      { class: 'details' },
      h('dt', {}, 'SKU'),
      h('dd', {}, product.sku ?? '— (only its variations have SKUs)'),
      h('dt', {}, 'Price'),
      h('dd', {}, money(product.price)),
      h('dt', {}, 'Units a line'),
      h('dd', {}, product.quantityRule === null ? 'Any' : quantityRuleLabel(product.quantityRule)),
      h('dt', {}, 'Active'),
      h('dd', {}, product.active ? 'Yes' : 'No'),
    ),
    section(
      'Variations',
      product.variations.length === 0
        ? h('p', {}, 'No variations.')
        : table(
            'Variations of this product',
            ['SKU', 'Price', 'Stock', 'Units a line'],
            product.variations.map((variation) => [
              variation.sku,
              variation.price === null ? `${money(product.price)} (the product’s)` : money(variation.price),
              variation.stock === null ? '—' : String(variation.stock),
              variation.quantityRule === null ? 'the product’s' : quantityRuleLabel(variation.quantityRule),
            ]),
          ),
    ),
  );
  const history = historySection(context, { productId: product.id }, 'Price history of this product');
  context.main.append(history.element);
  await history.reload();
};
