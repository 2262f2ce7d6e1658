import type { ChangeSetOperation, ImportMode } from '@pricebook/client/browser';
import { readCsvUpload } from '../csv-upload.js';
import { findCustomer } from '../customer-lookup.js';
import type { TradePrice } from '../../contract/trade-prices.js';
import { collect } from '../collect.js';
import { formatMoment, h, replaceChildren, table } from '../dom.js';
import { Form, priceOrText } from '../forms.js';
import { PRICE_ALIASES, PRICE_FIELDS, priceFromForm, productOfSku, suggestSkus } from '../price-input.js';
import { section, type ViewContext } from '../view.js';
import { customerName } from './customers.js';

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

/**
 * A new price for a live trade price, picked by customer and SKU (and its break, or its #, when
 * the customer has several of that SKU): its deletion and a record like it at the new price, two
 * operations.
 */
function changePriceForm(context: ViewContext, setId: number, added: () => Promise<void>): HTMLElement {
  const form = new Form({
    label: 'Change a price in the change set',
    submitLabel: 'Add the change to the set',
    fields: [
      { name: 'customerId', label: 'Customer', hint: 'Id or email.' },
      { name: 'sku', label: 'SKU', hint: 'The SKU of the customer’s price; its break and window stay.' },
      { name: 'minQuantity', label: 'From quantity', inputmode: 'numeric', hint: 'Only when the customer has several breaks of this SKU: the one to change.' },
      { name: 'price', label: 'New price', inputmode: 'decimal', hint: 'At most 4 decimals: 6.5 or 6,5' },
      {
        name: 'id',
        label: 'Or the price’s #',
        inputmode: 'numeric',
        hint: 'Instead of customer and SKU, or when that break has prices for several windows of time: the # the customer’s prices show.',
      },
    ],
    grid: true,
    onSubmit: async (form) => {
      const record = await pickTradePrice(context, form);
      if (record === undefined) return;
      const { id, customerId, productId, sku, minQuantity, validFrom, validUntil } = record;
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
      for (const name of ['id', 'minQuantity', 'price']) form.setValue(name, '');
      await added();
    },
  });
  suggestSkus(context.api, form, context.signal);
  return section('Change a price', form.element);
}

/**
 * The live trade price the change form names: by its # when one is typed, else the customer's
 * one price of the SKU (of the break typed). Shows at its field why none or several match, and
 * answers undefined then.
 */
async function pickTradePrice(context: ViewContext, form: Form): Promise<TradePrice | undefined> {
  const refuse = (name: string, message: string): undefined => {
    form.showFieldError(name, message);
    return undefined;
  };
  const idText = form.value('id');
  if (idText !== '') {
    const id = Number(idText);
    if (!Number.isSafeInteger(id) || id < 1) return refuse('id', 'a trade price’s #: a whole number from 1');
    const record = await context.api.tradePrices.get(id).catch(() => undefined);
    return record ?? refuse('id', `the store has no trade price #${id}`);
  }
  const customer = await findCustomer(context.api, form.value('customerId'));
  if (customer === undefined) return refuse('customerId', 'no customer of this store has this id or email');
  const sku = form.value('sku');
  if (sku === '') return refuse('sku', 'the SKU of the price to change');
  const breakText = form.value('minQuantity');
  const minQuantity = breakText === '' ? undefined : Number(breakText);
  if (minQuantity !== undefined && (!Number.isSafeInteger(minQuantity) || minQuantity < 1)) return refuse('minQuantity', 'a whole number from 1, or empty');
  const all = await collect(context.api.tradePrices.iterate({ customerId: customer.id, sku }));
  const matching = all.filter((record) => minQuantity === undefined || record.minQuantity === minQuantity);
  const who = customerName(customer);
  if (matching.length === 1) return matching[0];
  if (all.length === 0) return refuse('sku', `${who} has no trade price of ${sku}`);
  if (matching.length === 0) return refuse('minQuantity', `${who}’s prices of ${sku} start at ${breaksOf(all)}`);
  if (minQuantity === undefined && new Set(all.map((record) => record.minQuantity)).size > 1)
    return refuse('minQuantity', `${who} has prices of ${sku} from ${breaksOf(all)}: which one?`);
  return refuse(
    'id',
    `${who} has ${matching.length} prices of ${sku} from ${matching[0]!.minQuantity}, for different windows: ${matching.map(windowText).join('; ')}`,
  );
}

/** `1, 10 and 50`. */
function breaksOf(records: readonly TradePrice[]): string {
  const breaks = [...new Set(records.map((record) => record.minQuantity))].sort((a, b) => a - b).map(String);
  return breaks.length === 1 ? breaks[0]! : `${breaks.slice(0, -1).join(', ')} and ${breaks.at(-1)!}`;
}

/** `#12 from 2027-01-01 00:00 until always`. */
function windowText(record: TradePrice): string {
  const from = record.validFrom === null ? 'now' : formatMoment(record.validFrom);
  const until = record.validUntil === null ? 'always' : formatMoment(record.validUntil);
  return `#${record.id} from ${from} until ${until}`;
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
