import type { TradePrice, TradePriceSort } from '../../contract/trade-prices.js';
import { tradePricesCsv } from '../../csv/trade-prices-csv.js';
import { collect } from '../collect.js';
import { downloadText } from '../download-text.js';
import { formatMoment, h, momentFromInput, replaceChildren, sortableTable, type TableOrder, validityText } from '../dom.js';
import { confirmAction } from '../dialog.js';
import { Form } from '../forms.js';
import { inlinePriceCell, problemOf } from '../inline-price.js';
import { money } from '../money.js';
import { priceInputOf } from '../price-input.js';
import { actionButton, type AlertBox, pager, section, type ViewContext } from '../view.js';
import { replaceOnePrice } from './replace-one-price.js';

/** Trade prices per page of the table. */
const PAGE = 20;

/** The customer's trade prices, and what the rest of the page hears of them. */
export interface CustomerPricesTable {
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

/**
 * The customer's trade prices: paged, sorted by any column, filtered by SKU and moment, each
 * price edited in its row, explained or deleted there, and all of them downloaded as CSV.
 */
export function customerPricesTable(context: ViewContext, customerId: number, alert: AlertBox, toolbar: HTMLElement | null): CustomerPricesTable {
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

  const query = () => ({
    customerId,
    skuContains: filter.value('skuContains') === '' ? undefined : filter.value('skuContains'),
    validAt: momentFromInput(filter.value('validAt')),
  });
  const load = async () => {
    const sort = `${order.descending ? '-' : ''}${order.sort}` as TradePriceSort;
    const [page, total] = await Promise.all([
      context.api.tradePrices.list({
        ...query(),
        sort,
        count: PAGE,
        offset,
        fields: 'id,customerId,productId,sku,price,minQuantity,validFrom,validUntil,createdAt',
        embed: 'product',
      }),
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
            rows: page.map((record) => ({
              id: record.id,
              cells: [
                record.sku,
                record.product?.title ?? `#${record.productId}`,
                context.canChangePrices ? inlinePrice(context, customerId, record, (ids) => prices.showChanged(ids)) : money(record.price),
                String(record.minQuantity),
                formatMoment(record.validFrom),
                formatMoment(record.validUntil),
                formatMoment(record.createdAt),
                h(
                  'div',
                  { class: 'row-actions' },
                  context.canChangePrices ? rowButton('Edit', record, () => prices.onEdit(record)) : null,
                  rowButton('Explain', record, () => prices.onExplain(record)),
                  context.canChangePrices &&
                    actionButton(
                      'Delete',
                      async () => {
                        if (
                          !(await confirmAction({
                            title: `Delete price #${record.id}?`,
                            details: [
                              `${record.sku} at ${money(record.price)} from ${record.minQuantity} unit${record.minQuantity === 1 ? '' : 's'}, ${validityText(record)}, is deleted from this customer’s prices. The price history keeps it.`,
                            ],
                            confirmLabel: 'Delete price',
                          }))
                        )
                          return;
                        await context.api.tradePrices.delete(record.id);
                        context.announce(`Price of ${record.sku} deleted`);
                        prices.onChanged();
                        await load();
                      },
                      alert,
                      { 'aria-label': `Delete price #${record.id} of ${record.sku}` },
                    ),
                ),
              ],
            })),
          }),
      pager({
        offset,
        count: PAGE,
        total,
        shown: page.length,
        label: 'Trade prices',
        onPage: (next) => {
          offset = next;
          void load().catch((error: unknown) => alert.show(error));
        },
      }),
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
  const prices: CustomerPricesTable = {
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

/** A row's price, edited where it is (`inlinePriceCell`) as a replace of that one price (`replaceOnePrice`). */
function inlinePrice(context: ViewContext, customerId: number, record: TradePrice, saved: (ids: readonly number[]) => Promise<void>): HTMLElement {
  return inlinePriceCell({
    name: `#${record.id} (${record.sku})`,
    price: record.price,
    save: async (price) => {
      const { index, request } = await replaceOnePrice(context, customerId, record, { ...priceInputOf(record), price });
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
