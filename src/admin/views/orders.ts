import type { Order } from '../../contract/orders.js';
import { findCustomer } from '../customer-lookup.js';
import { formatMoment, h, replaceChildren, table } from '../dom.js';
import { Form } from '../forms.js';
import { moneyIn } from '../money.js';
import { alertBox, loadInto, pager, section, type View } from '../view.js';
import { customerNames, nameIn } from './customer-names.js';

/** Orders per page. */
const PAGE = 20;

/** Where a line's price came from, as staff read it, with the records named. */
export function sourceText(line: Pick<Order['lines'][number], 'source' | 'tradePriceId' | 'priceListId' | 'priceListPriceId'>): HTMLElement | string {
  switch (line.source) {
    case 'trade':
      return `Trade price #${line.tradePriceId ?? '?'}`;
    case 'price_list':
      return h(
        'span',
        {},
        line.priceListId === null ? 'A price list' : h('a', { href: `#/price-lists/${line.priceListId}` }, `Price list #${line.priceListId}`),
        line.priceListPriceId === null ? ' (percentage)' : `, entry #${line.priceListPriceId}`,
      );
    case 'variation':
      return 'The variation’s price';
    case 'product':
      return 'The product’s price';
    default:
      return 'Not recorded (placed before prices had sources)';
  }
}

/**
 * Placed orders, newest first, 20 a page, of every customer or of one (by id or email). The
 * API lists them oldest first: a page is read from the end, by the count.
 */
export const ordersView: View = async (context) => {
  context.heading('Orders');
  const alert = alertBox();
  const body = h('div', {}, h('p', {}, 'Loading orders…'));
  let page = 0;
  let customerId: number | undefined;
  const filter = new Form({
    label: 'Orders of a customer',
    submitLabel: 'Show their orders',
    fields: [{ name: 'customer', label: 'Customer', hint: 'Id or email; empty: every customer.' }],
    actions: [h('button', { type: 'reset' }, 'Show all')],
    grid: true,
    onSubmit: async (form) => {
      const text = form.value('customer');
      const customer = text === '' ? undefined : await findCustomer(context.api, text);
      if (text !== '' && customer === undefined) return form.showFieldError('customer', 'no customer of this store has this id or email');
      customerId = customer?.id;
      page = 0;
      await load();
    },
  });
  filter.element.addEventListener('reset', () => {
    customerId = undefined;
    page = 0;
    setTimeout(() => void load().catch((error: unknown) => alert.show(error)));
  });
  const load = async () => {
    const current = loadInto(body);
    const total = await context.api.orders.count({ customerId });
    const end = Math.max(0, total - page * PAGE);
    const start = Math.max(0, end - PAGE);
    const orders = end === 0 ? [] : (await context.api.orders.list({ customerId, offset: start, count: end - start })).reverse();
    const names = await customerNames(
      context.api,
      orders.map((order) => order.customerId),
    );
    if (!current()) return;
    replaceChildren(
      body,
      orders.length === 0
        ? h('p', {}, customerId === undefined ? 'No orders yet.' : 'This customer has placed no orders.')
        : table(
            'Orders, newest first',
            ['Order', 'Placed', 'Customer', 'Lines', 'Total'],
            orders.map((order) => [
              h('a', { href: `#/orders/${order.id}` }, `Order #${order.id}`),
              formatMoment(order.createdAt),
              h('a', { href: `#/customers/${order.customerId}` }, nameIn(names, order.customerId)),
              String(order.lines.length),
              moneyIn(order.total, order.currency),
            ]),
          ),
      pager({
        offset: page * PAGE,
        count: PAGE,
        total,
        shown: orders.length,
        label: 'Orders',
        onPage: (next) => {
          page = next / PAGE;
          void load().catch((error: unknown) => alert.show(error));
        },
      }),
    );
  };
  context.main.append(filter.element, alert, body);
  await load();
};

/** One order: each line with its price and where the price came from (the record that won). */
export const orderView: View = async (context, idText = '') => {
  const heading = context.heading(`Order #${idText}`);
  const order = await context.api.orders.get(Number(idText));
  heading.textContent = `Order #${order.id}`;
  const names = await customerNames(context.api, [order.customerId]);
  context.main.append(
    h(
      'dl',
      { class: 'details' },
      h('dt', {}, 'Customer'),
      h('dd', {}, h('a', { href: `#/customers/${order.customerId}` }, nameIn(names, order.customerId))),
      h('dt', {}, 'Placed'),
      h('dd', {}, formatMoment(order.createdAt)),
      h('dt', {}, 'Total'),
      h('dd', {}, moneyIn(order.total, order.currency)),
    ),
    section(
      'Lines',
      table(
        'Lines of this order',
        ['SKU', 'Quantity', 'Unit price', 'Line total', 'Price from'],
        order.lines.map((line) => [
          line.sku,
          String(line.quantity),
          moneyIn(line.unitPrice, order.currency),
          moneyIn(line.lineTotal, order.currency),
          sourceText(line),
        ]),
      ),
    ),
  );
};
