import type { PriceListInput } from '@pricebook/client/browser';
import { collect } from '../collect.js';
import { h, replaceChildren, table } from '../dom.js';
import { type FieldSpec, Form, numberOrText, priceOrText } from '../forms.js';
import { alertBox, section, type View } from '../view.js';

export const KIND_OPTIONS = [
  { value: 'fixed', label: 'Fixed: a price per SKU (entries)' },
  { value: 'percentage', label: 'Percentage off every catalog price' },
] as const;

export const POLICY_OPTIONS = [
  { value: 'first', label: 'In turn: the first of a customer’s lists that prices a SKU wins' },
  { value: 'lowest', label: 'Lowest price: paid only where it is lower (a sale)' },
] as const;
export const POLICY_HINT =
  'A lowest-price list takes no turn; it is paid where it is lower than what the customer would pay otherwise, their own trade price included.';

export const ROUNDING_OPTIONS = [
  { value: 'half-up', label: 'To the nearest (a half up)' },
  { value: 'up', label: 'Up' },
  { value: 'down', label: 'Down' },
] as const;

/** The rounding fields of a percentage list's form: an increment (empty: the store's currency) and a mode. */
export function roundingFields(rounding: { increment: number; mode: string } | null): FieldSpec[] {
  return [
    {
      name: 'rounding.increment',
      label: 'Round to',
      inputmode: 'decimal',
      value: rounding === null ? '' : String(rounding.increment),
      hint: 'Percentage lists only: a multiple of this, e.g. 0.05. Empty: the store’s currency (0.01 for GBP).',
    },
    { name: 'rounding.mode', label: 'Rounding', type: 'select', options: ROUNDING_OPTIONS, value: rounding?.mode ?? 'half-up' },
  ];
}

/** The rounding a form asks for: null when its increment is empty (sent as typed otherwise: the API judges it). */
export function roundingOf(form: Form): { increment: unknown; mode: string } | null {
  const increment = form.value('rounding.increment');
  return increment === '' ? null : { increment: priceOrText(increment), mode: form.value('rounding.mode') };
}

/** How a list's rounding reads in a table. */
export function roundingLabel(rounding: { increment: number; mode: string } | null): string {
  return rounding === null ? 'the store’s' : `${rounding.increment}, ${rounding.mode}`;
}

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
      ...roundingFields(null),
    ],
    onSubmit: async (form) => {
      // Sent as typed: the API judges it (a 422 shown at its field).
      const created = await context.api.priceLists.create({
        name: form.value('name') === '' ? undefined : form.value('name'),
        kind: form.value('kind'),
        percentage: numberOrText(form.value('percentage')),
        policy: form.value('policy'),
        ...(form.value('kind') === 'percentage' && { rounding: roundingOf(form) }),
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
            ['Name', 'Kind', 'Percentage off', 'Rounding', 'Policy'],
            lists.map((priceList) => [
              h('a', { href: `#/price-lists/${priceList.id}` }, priceList.name),
              priceList.kind,
              priceList.percentage === null ? '' : `${priceList.percentage} %`,
              priceList.kind === 'percentage' ? roundingLabel(priceList.rounding) : '',
              policyLabel(priceList.policy),
            ]),
          ),
    );
  } catch (error) {
    replaceChildren(list);
    alert.show(error);
  }
};
