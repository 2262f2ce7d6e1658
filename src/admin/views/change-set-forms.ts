import type { ChangeSetOperation, ImportMode } from '@pricebook/client/browser';
import { readCsvUpload } from '../csv-upload.js';
import { findCustomer } from '../customer-lookup.js';
import { h, replaceChildren, table } from '../dom.js';
import { Form, priceOrText } from '../forms.js';
import { PRICE_ALIASES, PRICE_FIELDS, priceFromForm, productOfSku, suggestSkus } from '../price-input.js';
import { section, type ViewContext } from '../view.js';

/** How often an import into the set is asked how far it is, and how many times at most (10 minutes). */
const POLL_MS = 300;
const MAX_POLLS = 2000;

/** The forms that add to an open change set: a price, a change of a live price, a deletion, a CSV file; each calls `added` once it is in the set. */
export function changeSetForms(context: ViewContext, setId: number, added: (message?: string) => Promise<void>): HTMLElement[] {
  return [
    addPriceForm(context, setId, () => added('Price added to the change set')),
    changePriceForm(context, setId, () => added('Change added to the change set')),
    deletePriceForm(context, setId, () => added('Deletion added to the change set')),
    uploadForm(context, setId, () => added()),
  ];
}

function addPriceForm(context: ViewContext, setId: number, added: () => Promise<void>): HTMLElement {
  const form = new Form({
    label: 'Add a price to the change set',
    submitLabel: 'Add price to the set',
    fields: [{ name: 'customerId', label: 'Customer', hint: 'Id or email.' }, ...PRICE_FIELDS],
    aliases: PRICE_ALIASES,
    grid: true,
    onSubmit: async (form) => {
      const customer = await findCustomer(context.api, form.value('customerId'));
      if (customer === undefined) return form.showFieldError('customerId', 'no customer of this store has this id or email');
      const sku = form.value('sku');
      const product = sku === '' ? undefined : await productOfSku(context.api, sku);
      if (sku !== '' && product === undefined) return form.showFieldError('sku', `no product or variation of this store has the SKU '${sku}'`);
      try {
        // Sent as typed: the API judges it (a 422 shown at its field).
        await context.api.changeSets.addOperations(setId, [
          { type: 'trade_price.create', customerId: customer.id, ...priceFromForm(form, product?.id) } as ChangeSetOperation,
        ]);
      } catch (error) {
        return form.showError(error, 0);
      }
      form.setValue('price', '');
      await added();
    },
  });
  suggestSkus(context.api, form, context.signal);
  return section('Add a price', form.element);
}

/** A new price for a live trade price: its deletion and a record like it at the new price, two operations. */
function changePriceForm(context: ViewContext, setId: number, added: () => Promise<void>): HTMLElement {
  const form = new Form({
    label: 'Change a price in the change set',
    submitLabel: 'Add the change to the set',
    fields: [
      {
        name: 'id',
        label: 'Trade price to change',
        inputmode: 'numeric',
        hint: 'The # of the price, as the customer’s prices show it; its SKU, break and window stay.',
      },
      { name: 'price', label: 'New price', inputmode: 'decimal', hint: 'At most 4 decimals: 6.5 or 6,5' },
    ],
    grid: true,
    onSubmit: async (form) => {
      const id = Number(form.value('id'));
      if (!Number.isSafeInteger(id) || id < 1) return form.showFieldError('id', 'a trade price’s id: a whole number from 1');
      const record = await context.api.tradePrices.get(id).catch(() => undefined);
      if (record === undefined) return form.showFieldError('id', `the store has no trade price #${id}`);
      const { customerId, productId, sku, minQuantity, validFrom, validUntil } = record;
      try {
        await context.api.changeSets.addOperations(setId, [
          { type: 'trade_price.delete', id },
          // Sent as typed: the API judges it (a 422 shown at its field).
          {
            type: 'trade_price.create',
            customerId,
            productId,
            sku,
            price: priceOrText(form.value('price')),
            minQuantity,
            validFrom,
            validUntil,
          } as ChangeSetOperation,
        ]);
      } catch (error) {
        return form.showError(error, 1);
      }
      form.setValue('id', '');
      form.setValue('price', '');
      await added();
    },
  });
  return section('Change a price', form.element);
}

function deletePriceForm(context: ViewContext, setId: number, added: () => Promise<void>): HTMLElement {
  const form = new Form({
    label: 'Delete a price in the change set',
    submitLabel: 'Add the deletion to the set',
    fields: [{ name: 'id', label: 'Trade price id', inputmode: 'numeric', hint: 'The # of the price, as the customer’s prices show it.' }],
    onSubmit: async (form) => {
      const id = Number(form.value('id'));
      if (!Number.isSafeInteger(id) || id < 1) return form.showFieldError('id', 'a trade price’s id: a whole number from 1');
      try {
        await context.api.changeSets.addOperations(setId, [{ type: 'trade_price.delete', id }]);
      } catch (error) {
        return form.showError(error, 0);
      }
      form.setValue('id', '');
      await added();
    },
  });
  return section('Delete a price', form.element);
}

function uploadForm(context: ViewContext, setId: number, uploaded: () => Promise<void>): HTMLElement {
  const progress = h('div', { 'aria-live': 'polite' });
  const form = new Form({
    label: 'Upload prices into the change set',
    submitLabel: 'Upload into the set',
    fields: [
      {
        name: 'file',
        label: 'CSV file',
        type: 'file',
        accept: '.csv,text/csv',
        hint: 'The import formats (long or matrix); the rows become operations of the set, nothing changes until it is applied.',
      },
      {
        name: 'mode',
        label: 'Mode',
        type: 'select',
        value: 'replace',
        options: [
          { value: 'replace', label: 'Replace: each customer in the file gets exactly its rows' },
          { value: 'add', label: 'Add: every row becomes a new trade price' },
        ],
      },
    ],
    onSubmit: async (form) => {
      const file = form.file('file');
      if (file === undefined) return form.showFieldError('file', 'choose a file first');
      const upload = await readCsvUpload(file);
      if (upload.problem !== undefined) return form.showFieldError('file', upload.problem);
      replaceChildren(progress, h('p', {}, 'Checking the file…'));
      let state;
      try {
        state = await context.api.imports.create(upload.bytes, { mode: form.value('mode') as ImportMode, changeSet: setId });
        for (let polls = 0; (state.status === 'queued' || state.status === 'running') && polls < MAX_POLLS; polls++) {
          await new Promise((resolve) => setTimeout(resolve, POLL_MS));
          state = await context.api.imports.get(state.id);
        }
      } catch (error) {
        // The check ended, refused: the form says why, and nothing is in progress.
        replaceChildren(progress);
        throw error;
      }
      replaceChildren(
        progress,
        h(
          'p',
          { class: state.status === 'failed' ? 'result failed' : 'result' },
          state.status === 'succeeded' ? `File added: ${state.rows ?? 0} rows.` : `The file was not added: ${state.errorCount} problems.`,
        ),
        state.errors.length === 0
          ? null
          : table(
              'Problems in the file',
              ['Row', 'Column', 'Problem'],
              state.errors.map((problem) => [String(problem.row), problem.field ?? '', problem.message]),
            ),
      );
      await uploaded();
    },
  });
  return section('Upload a CSV file', form.element, progress);
}
