import type { TradePriceInput } from '@pricebook/client/browser';
import type { ReplaceTradePricesResult, TradePrice } from '../../contract/trade-prices.js';
import { h } from '../dom.js';
import { pricePanel } from '../price-panel.js';
import { Form } from '../forms.js';
import { PRICE_ALIASES, PRICE_FIELDS, priceFromForm, priceValues, productOfSku, suggestSkus } from '../price-input.js';
import type { ViewContext } from '../view.js';
import { replaceOnePrice } from './replace-one-price.js';

/**
 * A panel (a modal dialog at the page's right; the whole screen on a phone) that adds a price
 * (a bulk create of one item), or, in edit mode, replaces the edited record: a
 * replace with scope `skus` for its SKU, naming every other price of that SKU as it is, so only
 * the edited one changes. The SKU of an edited price stays (delete and add to move it).
 */
export function customerPriceForm(context: ViewContext, customerId: number, saved: (sku: string, ids: readonly number[]) => Promise<void>) {
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
        const { index, request } = await replaceOnePrice(context, customerId, editing, priceFromForm(form, editing.productId));
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
