import type { PriceListInput } from '@pricebook/client/browser';
import { collect } from '../collect.js';
import { h, replaceChildren, table } from '../dom.js';
import { Form, numberOrText } from '../forms.js';
import { alertBox, section, type View } from '../view.js';

export const KIND_OPTIONS = [
  { value: 'fixed', label: 'Fixed: a price per SKU (entries)' },
  { value: 'percentage', label: 'Percentage off every catalog price' },
] as const;

export const POLICY_OPTIONS = [
  { value: 'first', label: 'In turn: the first of a customer’s lists that prices a SKU wins' },
  { value: 'lowest', label: 'Lowest price: paid only where it is lower (a sale)' },
] as const;
export const POLICY_HINT = 'A lowest-price list takes no turn; it is paid where it is lower than what the customer would pay otherwise, their own trade price included.';

/** How a list's policy reads in a table. */
export function policyLabel(policy: string): string {
  return policy === 'lowest' ? 'Lowest price' : 'In turn';
}

/** The store's price lists, and a form that creates one. */
export const priceListsView: View = async (context) => {
  context.heading('Price lists');
  const alert = alertBox();
  const list = h('div', {}, h('p', {}, 'Loading price lists…'));
  const form = new Form({
    label: 'Create a price list',
    submitLabel: 'Create price list',
    fields: [
      { name: 'name', label: 'Name' },
      { name: 'kind', label: 'Kind', type: 'select', options: KIND_OPTIONS, value: 'fixed', hint: 'Set once: a list never changes its kind.' },
      { name: 'percentage', label: 'Percentage off', inputmode: 'decimal', hint: 'Percentage lists only: 0–100, e.g. 12.5' },
      { name: 'policy', label: 'Policy', type: 'select', options: POLICY_OPTIONS, value: 'first', hint: POLICY_HINT },
    ],
    onSubmit: async (form) => {
      // Sent as typed: the API judges it (a 422 shown at its field).
      const created = await context.api.priceLists.create({
        name: form.value('name') === '' ? undefined : form.value('name'),
        kind: form.value('kind'),
        percentage: numberOrText(form.value('percentage')),
        policy: form.value('policy'),
      } as PriceListInput);
      context.announce(`Price list ${created.name} created`);
      context.navigate(`#/price-lists/${created.id}`);
    },
  });
  context.main.append(alert, section('All price lists', list), section('Create a price list', form.element));
  try {
    const lists = await collect(context.api.priceLists.iterate());
    replaceChildren(
      list,
      lists.length === 0
        ? h('p', {}, 'No price lists yet.')
        : table(
            'Price lists',
            ['Name', 'Kind', 'Percentage off', 'Policy'],
            lists.map((priceList) => [
              h('a', { href: `#/price-lists/${priceList.id}` }, priceList.name),
              priceList.kind,
              priceList.percentage === null ? '' : `${priceList.percentage} %`,
              policyLabel(priceList.policy),
            ]),
          ),
    );
  } catch (error) {
    replaceChildren(list);
    alert.show(error);
  }
};
