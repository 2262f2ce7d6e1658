import type { PriceList } from '../../contract/price-lists.js';
import { collect } from '../collect.js';
import { h } from '../dom.js';
import { alertBox, approvalNotice, type View } from '../view.js';
import { customerName } from './customers.js';
import { customerDetails, customerEditSection } from './customer-details.js';
import { customerPriceForm } from './customer-price-form.js';
import { customerPricesTable } from './customer-prices-table.js';
import { effectivePricePanel } from './effective-price.js';
import { historySection } from './history.js';
import { quoteSection } from './quote.js';

/**
 * One customer: details, trade prices (paged, filtered by SKU and moment), a form that adds a
 * price or edits one (as a replace of that SKU's prices), deletes, a CSV download, and the
 * effective price of any SKU and quantity with its candidates.
 */
export const customerView: View = async (context, idText = '') => {
  const customerId = Number(idText);
  const heading = context.heading(`Customer ${customerId}`);
  const alert = alertBox();
  context.main.append(alert);
  const [customer, lists] = await Promise.all([
    context.api.customers.get(customerId),
    collect(context.api.priceLists.iterate({ fields: 'id,name,kind' })).catch(() => [] as PriceList[]),
  ]);
  const group = customer.customerGroupId === null ? undefined : await context.api.customerGroups.get(customer.customerGroupId).catch(() => undefined);
  heading.textContent = customerName(customer);
  document.title = `${customerName(customer)} · Pricebook admin`;
  const listNames = new Map(lists.map((list) => [list.id, list.name]));
  const listName = (id: number) => `“${listNames.get(id) ?? `#${id}`}”`;

  const addPrice = h('button', { type: 'button', class: 'add-price' }, 'Add a price');
  const prices = customerPricesTable(context, customerId, alert, context.canChangePrices ? addPrice : null);
  const effective = effectivePricePanel(context, customerId, listName);
  const history = historySection(context, { customerId }, 'Price history of this customer');
  prices.onChanged = () => void history.reload();
  const form = customerPriceForm(context, customerId, async (sku, ids) => {
    await prices.showChanged(ids);
    void history.reload();
    await effective.explain(sku).catch(() => undefined);
  });
  prices.onEdit = (record) => form.edit(record);
  addPrice.addEventListener('click', () => form.open());
  prices.onExplain = (record) => {
    void effective.explain(record.sku, record.minQuantity);
    effective.element.scrollIntoView({ block: 'start' });
  };

  const details = customerDetails(context, customer, { group, listNames, listName }, alert);
  context.main.append(
    details.element,
    ...(context.canChange
      ? [
          customerEditSection(context, customer, (updated) => {
            heading.textContent = customerName(updated);
            document.title = `${customerName(updated)} · Pricebook admin`;
            details.show(updated);
          }),
        ]
      : []),
    prices.element,
    context.canChangePrices
      ? form.element
      : context.canChange
        ? approvalNotice('this customer’s trade prices and price lists change through a change set, which another staff member approves before it applies.')
        : h('p', { class: 'notice' }, `As a ${context.member?.role ?? 'viewer'} you see the prices; adding, editing and deleting them needs an editor’s role.`),
    effective.element,
    quoteSection(context, customerId, (sku, quantity) => {
      void effective.explain(sku, quantity);
      effective.element.scrollIntoView({ block: 'start' });
    }),
    history.element,
  );
  await Promise.all([prices.reload(), history.reload()]);
};
