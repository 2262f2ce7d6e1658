import type { PricedSkuInput, TradePriceInput } from '@pricebook/client/browser';
import type { Customer } from '../../contract/customers.js';
import type { PriceList } from '../../contract/price-lists.js';
import type { ReplaceTradePricesRequest, ReplaceTradePricesResult, TradePrice, TradePriceSort } from '../../contract/trade-prices.js';
import { tradePricesCsv } from '../../csv/trade-prices-csv.js';
import { collect } from '../collect.js';
import { downloadText } from '../download-text.js';
import { formatMoment, h, momentFromInput, replaceChildren, sortableTable, type TableOrder, validityText } from '../dom.js';
import { confirmAction } from '../dialog.js';
import { pricePanel } from '../price-panel.js';
import { Form } from '../forms.js';
import { inlinePriceCell, problemOf } from '../inline-price.js';
import { money } from '../money.js';
import { PRICE_ALIASES, PRICE_FIELDS, priceFromForm, priceInputOf, priceValues, productOfSku, suggestSkus } from '../price-input.js';
import { actionButton, alertBox, type AlertBox, pager, section, type View, type ViewContext } from '../view.js';
import { customerFields, customerFromForm, customerName } from './customers.js';
import { effectivePricePanel } from './effective-price.js';
import { historySection } from './history.js';
import { quoteSection } from './quote.js';

/** Trade prices per page of the table. */
const PAGE = 20;

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
  const prices = pricesTable(context, customerId, alert, context.canChange ? addPrice : null);
  const effective = effectivePricePanel(context, customerId, listName);
  const history = historySection(context, { customerId }, 'Price history of this customer');
  prices.onChanged = () => void history.reload();
  const form = priceForm(context, customerId, async (sku, ids) => {
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

  const detailsOf = (customer: Customer) =>
    h(
      'dl',
      { class: 'details' },
      h('dt', {}, 'Email'),
      h('dd', {}, customer.email),
      h('dt', {}, 'Company'),
      h('dd', {}, customer.companyName ?? '—'),
      h('dt', {}, 'Trade customer'),
      h('dd', {}, customer.trade ? 'Yes: their trade prices apply' : 'No: their trade prices do not apply (price lists and catalog prices do)'),
      h('dt', {}, 'Active'),
      h('dd', {}, customer.active ? 'Yes' : 'No'),
      h('dt', {}, 'Price lists, in order'),
      h(
        'dd',
        {},
        customer.priceListIds.length === 0
          ? 'None'
          : context.canChange
            ? listOrder(customer)
            : h('ol', { class: 'inline-list' }, ...customer.priceListIds.map((id) => h('li', {}, h('a', { href: `#/price-lists/${id}` }, listNames.get(id) ?? `List ${id}`)))),
      ),
      h('dt', {}, 'Customer group'),
      h(
        'dd',
        {},
        customer.customerGroupId === null
          ? 'None'
          : h('a', { href: `#/customer-groups/${customer.customerGroupId}` }, group?.name ?? `Group ${customer.customerGroupId}`),
        customer.customerGroupId === null ? '' : ': its price lists apply after the customer’s own',
      ),
    );
  /**
   * The customer's lists in order, each with "Move up" and "Move down" (a button: keyboard and
   * pointer alike), and dragged to its place with a pointer: a move is `PUT /v1/customers/{id}`
   * with the new `priceListIds`, and the focus stays on the moved list's button.
   */
  const listOrder = (shown: Customer): HTMLElement => {
    const move = async (from: number, to: number, direction: string) => {
      const ids = [...shown.priceListIds];
      const [moved] = ids.splice(from, 1);
      ids.splice(to, 0, moved!);
      const updated = await context.api.customers.update(shown.id, { priceListIds: ids });
      showDetails(updated);
      context.announce(`${listName(moved!)} moved ${direction}: now ${to + 1} of ${ids.length}`);
      const button = details.querySelector<HTMLButtonElement>(`[data-list="${moved!}"][data-move="${to === 0 || to === ids.length - 1 ? (direction === 'up' ? 'down' : 'up') : direction}"]`);
      button?.focus();
    };
    /** The list being dragged, by its place; undefined while none is. */
    let dragged: number | undefined;
    const dropTarget = (event: DragEvent): HTMLLIElement | null => (event.target instanceof Element ? event.target.closest('li') : null);
    const items = shown.priceListIds.map((id, index) => {
      const item = h(
        'li',
        { draggable: 'true', 'data-index': String(index), title: 'Drag to reorder, or use Move up and Move down' },
        h('span', { class: 'grip', 'aria-hidden': 'true' }, '⠿ '),
        h('a', { href: `#/price-lists/${id}`, draggable: 'false' }, listNames.get(id) ?? `List ${id}`),
          ' ',
          index === 0 ? null : actionButton('Move up', () => move(index, index - 1, 'up'), alert, { 'aria-label': `Move ${listName(id)} up`, 'data-list': String(id), 'data-move': 'up' }),
          index === shown.priceListIds.length - 1 ? null : actionButton('Move down', () => move(index, index + 1, 'down'), alert, { 'aria-label': `Move ${listName(id)} down`, 'data-list': String(id), 'data-move': 'down' }),
      );
      item.addEventListener('dragstart', (event) => {
        dragged = index;
        event.dataTransfer?.setData('text/plain', listNames.get(id) ?? String(id));
        item.classList.add('dragging');
      });
      item.addEventListener('dragend', () => {
        dragged = undefined;
        for (const other of items) other.classList.remove('dragging', 'drop-here');
      });
      return item;
    });
    const list = h('ol', { class: 'list-order' }, ...items);
    list.addEventListener('dragover', (event) => {
      const target = dropTarget(event);
      if (dragged === undefined || target === null) return;
      // Here it may land: the browser drops only where dragover was cancelled.
      event.preventDefault();
      for (const other of items) other.classList.toggle('drop-here', other === target);
    });
    list.addEventListener('drop', (event) => {
      const target = dropTarget(event);
      const from = dragged;
      if (from === undefined || target === null) return;
      event.preventDefault();
      const to = Number(target.dataset.index);
      if (to === from) return;
      move(from, to, to < from ? 'up' : 'down').catch((error: unknown) => alert.show(error));
    });
    return list;
  };
  let details = detailsOf(customer);
  const showDetails = (updated: Customer) => {
    const next = detailsOf(updated);
    details.replaceWith(next);
    details = next;
  };
  context.main.append(
    details,
    ...(context.canChange
      ? [
          editSection(context, customer, (updated) => {
            heading.textContent = customerName(updated);
            document.title = `${customerName(updated)} · Pricebook admin`;
            showDetails(updated);
          }),
        ]
      : []),
    prices.element,
    context.canChange ? form.element : h('p', { class: 'notice' }, `As a ${context.member?.role ?? 'viewer'} you see the prices; adding, editing and deleting them needs an editor’s role.`),
    effective.element,
    quoteSection(context, customerId, (sku, quantity) => {
      void effective.explain(sku, quantity);
      effective.element.scrollIntoView({ block: 'start' });
    }),
    history.element,
  );
  await Promise.all([prices.reload(), history.reload()]);
};

/** "Edit details": the customer's own fields (`PUT /v1/customers/{id}`), folded away until opened. */
function editSection(context: ViewContext, customer: Customer, saved: (customer: Customer) => void): HTMLElement {
  const form = new Form({
    label: 'Edit the customer',
    submitLabel: 'Save details',
    fields: customerFields(customer),
    grid: true,
    onSubmit: async (form) => {
      let updated: Customer;
      try {
        updated = await context.api.customers.update(customer.id, customerFromForm(form));
      } catch (error) {
        return form.showError(error);
      }
      saved(updated);
      context.announce(`Details of ${customerName(updated)} saved`);
    },
  });
  return h('details', { class: 'edit-details' }, h('summary', {}, 'Edit details (name, company, trade, active)'), form.element);
}

interface PricesTable {
  element: HTMLElement;
  reload(): Promise<void>;
  /** Newest first from the first page, the records of `ids` (just saved) highlighted and in view. */
  showChanged(ids: readonly number[]): Promise<void>;
  onEdit: (record: TradePrice) => void;
  onExplain: (record: TradePrice) => void;
  /** A price was deleted here. */
  onChanged: () => void;
}

/** The prices table's first order: the newest first (the API's `sort=-id`). */
const NEWEST_FIRST: TableOrder = { sort: 'id', descending: true };

function pricesTable(context: ViewContext, customerId: number, alert: AlertBox, toolbar: HTMLElement | null): PricesTable {
  let offset = 0;
  let order = NEWEST_FIRST;
  /** The records the last save made, highlighted until the next load. */
  let marked = new Set<number>();
  const body = h('div', {});
  const filter = new Form({
    label: 'Filter trade prices',
    submitLabel: 'Filter',
    fields: [
      { name: 'skuContains', label: 'SKU contains', hint: 'Any part of the SKU, in either case; empty: all.' },
      { name: 'validAt', label: 'Valid at', type: 'datetime-local', hint: 'Only prices valid at this moment; empty: all.' },
    ],
    onSubmit: async () => {
      offset = 0;
      await load();
    },
    actions: [h('button', { type: 'reset' }, 'Show all')],
    grid: true,
  });
  filter.element.addEventListener('reset', () => {
    offset = 0;
    setTimeout(() => void load().catch((error: unknown) => alert.show(error)));
  });

  const query = () => ({ customerId, skuContains: filter.value('skuContains') === '' ? undefined : filter.value('skuContains'), validAt: momentFromInput(filter.value('validAt')) });
  const load = async () => {
    const sort = `${order.descending ? '-' : ''}${order.sort}` as TradePriceSort;
    const [page, total] = await Promise.all([
      context.api.tradePrices.list({ ...query(), sort, count: PAGE, offset, fields: 'id,customerId,productId,sku,price,minQuantity,validFrom,validUntil,createdAt', embed: 'product' }),
      context.api.tradePrices.count(query()),
    ]);
    const filtered = query().skuContains !== undefined || query().validAt !== undefined;
    const hidden = [...marked].filter((id) => !page.some((record) => record.id === id));
    replaceChildren(
      body,
      hidden.length > 0 && filtered ? h('p', { class: 'notice' }, 'The price just saved is not among those shown: the filter leaves it out.') : null,
      page.length === 0
        ? h('p', {}, total > 0 ? 'No trade prices on this page.' : filtered ? 'No trade prices match the filter.' : 'No trade prices yet.')
        : sortableTable({
            caption: 'Trade prices of this customer',
            columns: [
              { label: 'SKU', sort: 'sku' },
              { label: 'Product', sort: 'productId' },
              { label: 'Price', sort: 'price' },
              { label: 'From quantity', sort: 'minQuantity' },
              { label: 'Valid from', sort: 'validFrom' },
              { label: 'Valid until', sort: 'validUntil' },
              { label: 'Added', sort: 'id' },
              { label: 'Actions' },
            ],
            order,
            onSort: (next) => {
              order = next;
              offset = 0;
              void load().catch((error: unknown) => alert.show(error));
            },
            marked,
            rows: page.map((record) => ({ id: record.id, cells: [
              record.sku,
              record.product?.title ?? `#${record.productId}`,
              context.canChange ? inlinePrice(context, customerId, record, (ids) => prices.showChanged(ids)) : money(record.price),
              String(record.minQuantity),
              formatMoment(record.validFrom),
              formatMoment(record.validUntil),
              formatMoment(record.createdAt),
              h(
                'div',
                { class: 'row-actions' },
                context.canChange ? rowButton('Edit', record, () => prices.onEdit(record)) : null,
                rowButton('Explain', record, () => prices.onExplain(record)),
                context.canChange && actionButton(
                  'Delete',
                  async () => {
                    if (!(await confirmAction({ title: `Delete price #${record.id}?`, details: [`${record.sku} at ${money(record.price)} from ${record.minQuantity} unit${record.minQuantity === 1 ? '' : 's'}, ${validityText(record)}, is deleted from this customer’s prices. The price history keeps it.`], confirmLabel: 'Delete price' }))) return;
                    await context.api.tradePrices.delete(record.id);
                    context.announce(`Price of ${record.sku} deleted`);
                    prices.onChanged();
                    await load();
                  },
                  alert,
                  { 'aria-label': `Delete price #${record.id} of ${record.sku}` },
                ),
              ),
            ] })),
          }),
      pager({ offset, count: PAGE, total, shown: page.length, label: 'Trade prices', onPage: (next) => {
        offset = next;
        void load().catch((error: unknown) => alert.show(error));
      } }),
    );
  };
  const download = actionButton(
    'Download prices (CSV)',
    async () => {
      const records = await collect(context.api.tradePrices.iterate({ customerId, fields: 'customerId,sku,price,minQuantity,validFrom,validUntil' }));
      downloadText(`customer-${customerId}-prices.csv`, tradePricesCsv(records));
      context.announce(`${records.length} prices downloaded`);
    },
    alert,
  );
  const prices: PricesTable = {
    element: section('Trade prices', toolbar, filter.element, body, h('p', {}, download)),
    reload: async () => {
      marked = new Set();
      await load();
    },
    async showChanged(ids) {
      marked = new Set(ids);
      order = NEWEST_FIRST;
      offset = 0;
      await load();
      body.querySelector('tr.marked')?.scrollIntoView({ block: 'nearest' });
    },
    onEdit: () => undefined,
    onExplain: () => undefined,
    onChanged: () => undefined,
  };
  return prices;
}

/**
 * The replace that changes one price and no other: scope `skus` for its SKU, naming every other
 * price of that SKU as it is and this one as `next` (sent as typed: the API judges it); `index`
 * is the changed one's place, where the API's problems name it.
 */
async function replaceOne(context: ViewContext, customerId: number, record: TradePrice, next: unknown): Promise<{ index: number; request: ReplaceTradePricesRequest }> {
  const sameSku = await collect(context.api.tradePrices.iterate({ customerId, sku: record.sku }));
  let index = sameSku.findIndex((candidate) => candidate.id === record.id);
  if (index === -1) index = sameSku.length;
  const prices: unknown[] = sameSku.map(priceInputOf);
  prices[index] = next;
  return { index, request: { customerId, scope: 'skus', prices: prices as PricedSkuInput[], dryRun: false } };
}

/** A row's price, edited where it is (`inlinePriceCell`) as a replace of that one price (`replaceOne`). */
function inlinePrice(context: ViewContext, customerId: number, record: TradePrice, saved: (ids: readonly number[]) => Promise<void>): HTMLElement {
  return inlinePriceCell({
    name: `#${record.id} (${record.sku})`,
    price: record.price,
    save: async (price) => {
      const { index, request } = await replaceOne(context, customerId, record, { ...priceInputOf(record), price });
      try {
        const result = await context.api.tradePrices.replace(request);
        context.announce(`Price of ${record.sku} changed to ${typeof price === 'number' ? money(price) : String(price)}`);
        await saved(result.created.map((created) => created.id).filter((id): id is number => id !== null));
        return undefined;
      } catch (error) {
        return problemOf(error, index);
      }
    },
  });
}

function rowButton(label: string, record: TradePrice, action: () => void): HTMLButtonElement {
  return h('button', { type: 'button', 'aria-label': `${label} price #${record.id} of ${record.sku}`, onclick: action }, label);
}

/**
 * A panel (a modal dialog at the page's right; the whole screen on a phone) that adds a price
 * (a bulk create of one item), or, in edit mode, replaces the edited record: a
 * replace with scope `skus` for its SKU, naming every other price of that SKU as it is, so only
 * the edited one changes. The SKU of an edited price stays (delete and add to move it).
 */
function priceForm(context: ViewContext, customerId: number, saved: (sku: string, ids: readonly number[]) => Promise<void>) {
  const cancel = h('button', { type: 'button', class: 'secondary' }, 'Close');
  const form = new Form({
    label: 'Add or edit a price',
    submitLabel: 'Add price',
    fields: PRICE_FIELDS,
    aliases: PRICE_ALIASES,
    actions: [cancel],
    grid: true,
    onSubmit: async (form) => {
      const sku = form.value('sku');
      let ids: readonly number[] = [];
      const editing = editor.editing;
      if (editing === undefined) {
        const product = sku === '' ? undefined : await productOfSku(context.api, sku);
        if (sku !== '' && product === undefined) return form.showFieldError('sku', `no product or variation of this store has the SKU '${sku}'`);
        try {
          // Sent as typed: the API judges it (a 422 shown at its field).
          const created = await context.api.tradePrices.createMany([{ customerId, ...priceFromForm(form, product?.id) } as TradePriceInput]);
          ids = created.map((record) => record.id);
        } catch (error) {
          return form.showError(error, 0);
        }
        context.announce(`Price for ${sku} added`);
      } else {
        const { index, request } = await replaceOne(context, customerId, editing, priceFromForm(form, editing.productId));
        let result: ReplaceTradePricesResult;
        try {
          result = await context.api.tradePrices.replace(request);
        } catch (error) {
          return form.showError(error, index);
        }
        ids = result.created.map((record) => record.id).filter((id): id is number => id !== null);
        context.announce(`Price for ${sku} saved: ${result.created.length} created, ${result.deleted.length} deleted, ${result.unchanged} unchanged`);
      }
      form.setValue('price', '');
      // Closed once saved: the table shows the new row, highlighted.
      panel.close();
      await saved(sku, ids);
    },
  });
  suggestSkus(context.api, form, context.signal);
  // Closed by Close, by Escape, or once saved: the next opening starts as "Add a price".
  const editor = pricePanel<TradePrice>(form, PRICE_FIELDS, { title: 'Add a price', submitLabel: 'Add price' });
  const { panel } = editor;
  cancel.addEventListener('click', () => panel.close());
  return {
    element: panel.element,
    open: () => editor.add(),
    edit(record: TradePrice) {
      editor.edit(
        record,
        { title: `Edit price #${record.id}`, note: `Saving replaces price #${record.id} of ${record.sku}; the customer’s other prices stay as they are.` },
        priceValues(record),
      );
    },
  };
}
