import type { PriceListPrice, PriceListPriceInput, PriceListUpdate } from '@pricebook/client/browser';
import type { Customer } from '../../contract/customers.js';
import { priceListCsv } from '../../csv/price-list-csv.js';
import { collect } from '../collect.js';
import { findCustomer } from '../customer-lookup.js';
import { downloadText } from '../download-text.js';
import { formatMoment, h, replaceChildren, table, validityText } from '../dom.js';
import { confirmAction } from '../dialog.js';
import { pricePanel } from '../price-panel.js';
import { Form, numberOrText } from '../forms.js';
import { inlinePriceCell, problemOf } from '../inline-price.js';
import { money } from '../money.js';
import {
  PRICE_ALIASES,
  PRICE_FIELDS,
  priceFromForm,
  priceInputOf,
  priceValues,
  productOfSku,
  QUANTITY_RULE_FIELDS,
  suggestSkus,
  quantityRuleFromForm,
  quantityRuleLabel,
} from '../price-input.js';
import { actionButton, alertBox, type AlertBox, approvalNotice, pager, section, type View, type ViewContext } from '../view.js';
import { customerName } from './customers.js';
import { historySection } from './history.js';
import { listImportSection } from './list-import.js';
import { POLICY_HINT, POLICY_OPTIONS, roundingFields, roundingOf } from './price-lists.js';

const PAGE = 20;

/**
 * One price list: its name (and percentage), its entries (fixed lists: add, edit, delete,
 * download, import) and its customers (assign by id or email, remove). Entries have no update
 * in the API: an entry is changed by a replace of its SKU that names the SKU's other entries as
 * they are.
 */
export const priceListView: View = async (context, idText = '') => {
  const listId = Number(idText);
  const heading = context.heading(`Price list ${listId}`);
  const alert = alertBox();
  context.main.append(alert);
  const priceList = await context.api.priceLists.get(listId);
  const history = historySection(context, { priceListId: listId }, 'Price history of this list');
  const changed = () => void history.reload();
  heading.textContent = `Price list “${priceList.name}”`;
  document.title = `${priceList.name} · Pricebook admin`;

  // Where the store requires approval, only the name: the percentage, rounding and policy price, and so does a deletion.
  const pricing = context.canChangePrices;
  const settings = new Form({
    label: 'Price list settings',
    submitLabel: 'Save',
    fields: [
      { name: 'name', label: 'Name', value: priceList.name },
      ...(pricing && priceList.kind === 'percentage'
        ? [
            { name: 'percentage', label: 'Percentage off', inputmode: 'decimal' as const, value: String(priceList.percentage ?? '') },
            ...roundingFields(priceList.rounding),
          ]
        : []),
      ...(pricing ? [{ name: 'policy', label: 'Policy', type: 'select' as const, options: POLICY_OPTIONS, value: priceList.policy, hint: POLICY_HINT }] : []),
    ],
    onSubmit: async (form) => {
      const update: Record<string, unknown> = pricing ? { name: form.value('name'), policy: form.value('policy') } : { name: form.value('name') };
      if (pricing && priceList.kind === 'percentage') {
        update.percentage = numberOrText(form.value('percentage'));
        update.rounding = roundingOf(form);
      }
      // Sent as typed: the API judges it (a 422 shown at its field).
      const saved = await context.api.priceLists.update(listId, update as PriceListUpdate);
      heading.textContent = `Price list “${saved.name}”`;
      context.announce('Price list saved');
      changed();
    },
    actions: [
      ...(pricing
        ? [
            actionButton(
              'Delete price list',
              async () => {
                if (
                  !(await confirmAction({
                    title: `Delete the price list “${priceList.name}”?`,
                    details: [
                      'Its entries go with it, and it leaves every customer’s and group’s lists: those customers then pay what their other lists or the catalog give. The price history keeps it.',
                    ],
                    confirmLabel: 'Delete price list',
                  }))
                )
                  return;
                await context.api.priceLists.delete(listId);
                context.announce('Price list deleted');
                context.navigate('#/price-lists');
              },
              alert,
            ),
          ]
        : []),
    ],
  });
  context.main.append(
    h(
      'p',
      {},
      (priceList.kind === 'fixed'
        ? 'A fixed list: a price per SKU, from its entries.'
        : `A percentage list: ${priceList.percentage ?? 0} % off every catalog price.`) +
        (priceList.policy === 'lowest' ? ' A lowest-price list: paid only where it is lower than what the customer would pay otherwise.' : ''),
    ),
    section(
      'Settings',
      context.canChange ? settings.element : h('p', {}, `As a ${context.member?.role ?? 'viewer'} you see the list; changing it needs an editor’s role.`),
      context.canChange && !pricing
        ? approvalNotice(
            priceList.kind === 'percentage'
              ? 'only the list’s name changes here. Its percentage changes through a change set, which another staff member approves before it applies; its policy, rounding and deleting it change what its customers pay: ask the store’s owner.'
              : 'only the list’s name changes here. Its policy and deleting it change what its customers pay: ask the store’s owner.',
            priceList.kind === 'percentage',
          )
        : null,
    ),
  );
  const entries = priceList.kind === 'fixed' ? entriesSection(context, listId, alert, changed) : undefined;
  const customers = customersSection(context, listId, alert);
  if (entries !== undefined) context.main.append(entries.element);
  context.main.append(customers.element, history.element);
  await Promise.all([entries?.reload(), customers.reload(), history.reload()]);
};

function entriesSection(context: ViewContext, listId: number, alert: AlertBox, changed: () => void) {
  let offset = 0;
  const body = h('div', {});
  const load = async (): Promise<void> => {
    const [page, total] = await Promise.all([context.api.priceLists.prices.list(listId, { count: PAGE, offset }), context.api.priceLists.prices.count(listId)]);
    replaceChildren(
      body,
      page.length === 0
        ? h('p', {}, 'No entries.')
        : table(
            'Entries of this list',
            ['SKU', 'Price', 'From quantity', 'Valid from', 'Valid until', 'Units a line', 'Actions'],
            page.map((entry) => [
              entry.sku,
              context.canChangePrices
                ? inlinePriceCell({
                    name: `entry #${entry.id} (${entry.sku})`,
                    price: entry.price,
                    save: async (price) => {
                      const problem = await replaceEntry(context, listId, entry, { ...priceInputOf(entry), quantityRule: entry.quantityRule, price });
                      if (problem !== undefined) return problemOf(problem.error, problem.index);
                      context.announce(`Entry for ${entry.sku} changed to ${typeof price === 'number' ? money(price) : String(price)}`);
                      changed();
                      await load();
                      return undefined;
                    },
                  })
                : money(entry.price),
              String(entry.minQuantity),
              formatMoment(entry.validFrom),
              formatMoment(entry.validUntil),
              quantityRuleLabel(entry.quantityRule),
              context.canChangePrices &&
                h(
                  'div',
                  { class: 'row-actions' },
                  h('button', { type: 'button', 'aria-label': `Edit entry #${entry.id} of ${entry.sku}`, onclick: () => edit(entry) }, 'Edit'),
                  actionButton(
                    'Delete',
                    async () => {
                      if (
                        !(await confirmAction({
                          title: `Delete entry #${entry.id}?`,
                          details: [
                            `${entry.sku} at ${money(entry.price)} from ${entry.minQuantity} unit${entry.minQuantity === 1 ? '' : 's'}, ${validityText(entry)}, is deleted from this list. The price history keeps it.`,
                          ],
                          confirmLabel: 'Delete entry',
                        }))
                      )
                        return;
                      await context.api.priceLists.prices.delete(listId, entry.id);
                      context.announce(`Entry for ${entry.sku} deleted`);
                      changed();
                      await load();
                    },
                    alert,
                    { 'aria-label': `Delete entry #${entry.id} of ${entry.sku}` },
                  ),
                ),
            ]),
          ),
      pager({
        offset,
        count: PAGE,
        total,
        shown: page.length,
        label: 'Entries',
        onPage: (next) => {
          offset = next;
          void load().catch((error: unknown) => alert.show(error));
        },
      }),
    );
  };
  const close = h('button', { type: 'button', class: 'secondary' }, 'Close');
  const add = new Form({
    label: 'Add or edit an entry',
    submitLabel: 'Add entry',
    fields: [...PRICE_FIELDS, ...QUANTITY_RULE_FIELDS],
    aliases: PRICE_ALIASES,
    actions: [close],
    grid: true,
    onSubmit: async (form) => {
      const entry = entryPanel.editing;
      if (entry !== undefined) {
        // Sent as typed, the SKU kept; all three rule fields empty: the SKU's own rule.
        const problem = await replaceEntry(context, listId, entry, {
          quantityRule: null,
          ...priceFromForm(form, entry.productId),
          ...quantityRuleFromForm(form),
        });
        if (problem !== undefined) return form.showError(problem.error, problem.index);
        panel.close();
        context.announce(`Entry #${entry.id} for ${entry.sku} saved`);
        changed();
        await load();
        return;
      }
      const sku = form.value('sku');
      const product = sku === '' ? undefined : await productOfSku(context.api, sku);
      if (sku !== '' && product === undefined) return form.showFieldError('sku', `no product or variation of this store has the SKU '${sku}'`);
      try {
        // Sent as typed: the API judges it (a 422 shown at its field).
        await context.api.priceLists.prices.bulkCreate(listId, [{ ...priceFromForm(form, product?.id), ...quantityRuleFromForm(form) } as PriceListPriceInput]);
      } catch (error) {
        return form.showError(error, 0);
      }
      form.setValue('price', '');
      panel.close();
      context.announce(`Entry for ${sku} added`);
      changed();
      await load();
    },
  });
  suggestSkus(context.api, add, context.signal);
  // Beside the entries, in a panel: the table stays in view.
  const entryPanel = pricePanel<PriceListPrice>(add, [...PRICE_FIELDS, ...QUANTITY_RULE_FIELDS], { title: 'Add an entry', submitLabel: 'Add entry' });
  const { panel } = entryPanel;
  close.addEventListener('click', () => panel.close());
  const edit = (entry: PriceListPrice) => {
    const rule = entry.quantityRule;
    entryPanel.edit(
      entry,
      { title: `Edit entry #${entry.id}`, note: `Saving replaces entry #${entry.id} of ${entry.sku}; the list’s other entries stay as they are.` },
      {
        ...priceValues(entry),
        'quantityRule.increment': rule === null ? '' : String(rule.increment),
        'quantityRule.minimum': rule === null ? '' : String(rule.minimum),
        'quantityRule.maximum': rule === null || rule.maximum === null ? '' : String(rule.maximum),
      },
    );
  };
  const download = actionButton(
    'Download entries (CSV)',
    async () => {
      const all = await collect(context.api.priceLists.prices.iterate(listId));
      downloadText(`price-list-${listId}-prices.csv`, priceListCsv(all));
      context.announce(`${all.length} entries downloaded`);
    },
    alert,
  );
  return {
    element: h(
      'div',
      {},
      section(
        'Entries',
        context.canChangePrices ? panel.opener : null,
        context.canChange && !context.canChangePrices
          ? approvalNotice('the list’s entries change through a change set, which another staff member approves before it applies.')
          : null,
        body,
        h('p', {}, download),
      ),
      context.canChangePrices ? panel.element : null,
      context.canChangePrices &&
        listImportSection(context, listId, async () => {
          changed();
          await load();
        }),
    ),
    reload: load,
  };
}

/**
 * Changes one entry: a replace of its SKU (scope `skus`) that names the SKU's other entries as
 * they are and this one as `changed`, so only it changes. The refusal and the index of the
 * changed item in it, if the API refused.
 */
async function replaceEntry(
  context: ViewContext,
  listId: number,
  entry: PriceListPrice,
  changed: Record<string, unknown>,
): Promise<{ error: unknown; index: number } | undefined> {
  const sameSku = await collect(context.api.priceLists.prices.iterate(listId, { sku: entry.sku }));
  let index = sameSku.findIndex((candidate) => candidate.id === entry.id);
  if (index === -1) index = sameSku.length;
  const prices: unknown[] = sameSku.map((candidate) => ({ ...priceInputOf(candidate), quantityRule: candidate.quantityRule }));
  prices[index] = changed;
  try {
    await context.api.priceLists.prices.replace(listId, { scope: 'skus', prices: prices as PriceListPriceInput[], dryRun: false });
  } catch (error) {
    return { error, index };
  }
  return undefined;
}

function customersSection(context: ViewContext, listId: number, alert: AlertBox) {
  const body = h('div', {});
  const setLists = async (customer: Customer, priceListIds: number[]) => {
    await context.api.customers.update(customer.id, { priceListIds });
  };
  const load = async (): Promise<void> => {
    const customers = await collect(context.api.customers.iterate({ priceListId: listId }));
    replaceChildren(
      body,
      customers.length === 0
        ? h('p', {}, 'No customer has this list.')
        : table(
            'Customers of this list',
            context.canChangePrices ? ['Customer', 'Email', 'Position', 'Actions'] : ['Customer', 'Email', 'Position'],
            customers.map((customer) => [
              h('a', { href: `#/customers/${customer.id}` }, customerName(customer)),
              customer.email,
              `${customer.priceListIds.indexOf(listId) + 1} of ${customer.priceListIds.length}`,
              ...(context.canChangePrices
                ? [
                    h(
                      'div',
                      { class: 'row-actions' },
                      actionButton(
                        'Remove',
                        async () => {
                          await setLists(
                            customer,
                            customer.priceListIds.filter((id) => id !== listId),
                          );
                          context.announce(`${customerName(customer)} removed from the list`);
                          await load();
                        },
                        alert,
                        { 'aria-label': `Remove ${customerName(customer)} from this list` },
                      ),
                    ),
                  ]
                : []),
            ]),
          ),
    );
  };
  const assign = new Form({
    label: 'Assign a customer',
    submitLabel: 'Assign customer',
    fields: [
      {
        name: 'customer',
        label: 'Customer',
        hint: 'Id or email. The list goes last in the customer’s lists (the first list that prices a SKU wins; a lowest-price list is paid wherever it is lower).',
      },
    ],
    aliases: { priceListIds: 'customer' },
    onSubmit: async (form) => {
      const customer = await findCustomer(context.api, form.value('customer'));
      if (customer === undefined) return form.showFieldError('customer', 'no customer of this store has this id or email');
      if (!customer.priceListIds.includes(listId)) await setLists(customer, [...customer.priceListIds, listId]);
      form.setValue('customer', '');
      context.announce(`${customerName(customer)} has the list`);
      await load();
    },
  });
  const assigning = context.canChangePrices
    ? [h('h3', {}, 'Assign a customer'), assign.element]
    : [approvalNotice('which customers have the list changes through a change set, which another staff member approves before it applies.')];
  return { element: section('Customers', body, ...assigning), reload: load };
}
