import type { CustomerGroup, PriceList } from '@pricebook/client/browser';
import { collect } from '../collect.js';
import { findCustomer } from '../customer-lookup.js';
import { h, replaceChildren, table } from '../dom.js';
import { confirmAction } from '../dialog.js';
import { Form } from '../forms.js';
import { actionButton, alertBox, type AlertBox, approvalNotice, section, type View, type ViewContext } from '../view.js';
import { customerName } from './customers.js';

/** How a group's lists apply to its customers. */
const GROUP_POLICY_OPTIONS = [
  { value: 'first', label: 'In turn: each list by its own policy, after the customer’s own lists' },
  { value: 'lowest', label: 'Lowest price: every list of the group is paid only where it is lower' },
] as const;
const GROUP_POLICY_HINT = 'With lowest price, the customer pays the lowest of what the group’s lists offer and what it would pay otherwise.';

const LISTS_HINT = 'Names or ids of price lists, comma-separated, first first. They apply to each customer of the group after the customer’s own lists.';

/** The lists a form's text names (each a list's id or exact name), or the first name it does not know. */
function listsNamed(text: string, lists: readonly PriceList[]): { ids: number[] } | { unknown: string } {
  const ids: number[] = [];
  for (const part of text
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '')) {
    const list = lists.find((candidate) => candidate.name === part || String(candidate.id) === part);
    if (list === undefined) return { unknown: part };
    ids.push(list.id);
  }
  return { ids };
}

/** A group's lists as the form shows them: their names, in order. */
function listsText(group: Pick<CustomerGroup, 'priceListIds'>, lists: readonly PriceList[]): string {
  return group.priceListIds.map((id) => lists.find((list) => list.id === id)?.name ?? String(id)).join(', ');
}

/** The group's lists as links, in order. */
function listLinks(group: Pick<CustomerGroup, 'priceListIds'>, lists: readonly PriceList[]): HTMLElement | string {
  if (group.priceListIds.length === 0) return 'None';
  return h(
    'ol',
    { class: 'inline-list' },
    ...group.priceListIds.map((id) => h('li', {}, h('a', { href: `#/price-lists/${id}` }, lists.find((list) => list.id === id)?.name ?? `List ${id}`))),
  );
}

/** The store's customer groups, and a form that creates one. */
export const customerGroupsView: View = async (context) => {
  context.heading('Customer groups');
  const alert = alertBox();
  const body = h('div', {}, h('p', {}, 'Loading customer groups…'));
  const lists = await collect(context.api.priceLists.iterate());
  const form = new Form({
    label: 'Create a customer group',
    submitLabel: 'Create group',
    fields: [
      { name: 'name', label: 'Name' },
      { name: 'priceListIds', label: 'Price lists, in order', hint: LISTS_HINT },
      { name: 'policy', label: 'Policy', type: 'select', options: GROUP_POLICY_OPTIONS, value: 'first', hint: GROUP_POLICY_HINT },
    ],
    onSubmit: async (form) => {
      const named = listsNamed(form.value('priceListIds'), lists);
      if ('unknown' in named) return form.showFieldError('priceListIds', `no price list of this store is called '${named.unknown}'`);
      const created = await context.api.customerGroups.create({
        name: form.value('name'),
        priceListIds: named.ids,
        policy: form.value('policy') as CustomerGroup['policy'],
      });
      context.announce(`Customer group ${created.name} created`);
      context.navigate(`#/customer-groups/${created.id}`);
    },
  });
  context.main.append(
    alert,
    h('p', {}, 'A group gives its customers the same price lists. A customer belongs to at most one group; its own lists come first.'),
    section('All customer groups', body),
    context.canChange ? section('Create a customer group', form.element) : '',
  );
  try {
    const groups = await collect(context.api.customerGroups.iterate());
    replaceChildren(
      body,
      groups.length === 0
        ? h('p', {}, 'No customer groups yet.')
        : table(
            'Customer groups',
            ['Name', 'Price lists, in order', 'Policy'],
            groups.map((group) => [
              h('a', { href: `#/customer-groups/${group.id}` }, group.name),
              listLinks(group, lists),
              group.policy === 'lowest' ? 'Lowest price' : 'In turn',
            ]),
          ),
    );
  } catch (error) {
    replaceChildren(body);
    alert.show(error);
  }
};

/** One group: its name and lists (change, delete) and its customers (add by id or email, remove). */
export const customerGroupView: View = async (context, idText = '') => {
  const groupId = Number(idText);
  const heading = context.heading(`Customer group ${groupId}`);
  const alert = alertBox();
  context.main.append(alert);
  const [group, lists] = await Promise.all([context.api.customerGroups.get(groupId), collect(context.api.priceLists.iterate())]);
  heading.textContent = `Customer group “${group.name}”`;
  document.title = `${group.name} · Pricebook admin`;
  const shown = h('div', {}, listLinks(group, lists));
  // Where the store requires approval, only the name: the lists and the policy price, and so does a deletion.
  const pricing = context.canChangePrices;

  const settings = new Form({
    label: 'Customer group settings',
    submitLabel: 'Save',
    fields: [
      { name: 'name', label: 'Name', value: group.name },
      ...(pricing
        ? [
            { name: 'priceListIds', label: 'Price lists, in order', value: listsText(group, lists), hint: LISTS_HINT },
            { name: 'policy', label: 'Policy', type: 'select' as const, options: GROUP_POLICY_OPTIONS, value: group.policy, hint: GROUP_POLICY_HINT },
          ]
        : []),
    ],
    onSubmit: async (form) => {
      if (!pricing) {
        const renamed = await context.api.customerGroups.update(groupId, { name: form.value('name') });
        heading.textContent = `Customer group “${renamed.name}”`;
        context.announce('Customer group saved');
        return;
      }
      const named = listsNamed(form.value('priceListIds'), lists);
      if ('unknown' in named) return form.showFieldError('priceListIds', `no price list of this store is called '${named.unknown}'`);
      const saved = await context.api.customerGroups.update(groupId, {
        name: form.value('name'),
        priceListIds: named.ids,
        policy: form.value('policy') as CustomerGroup['policy'],
      });
      heading.textContent = `Customer group “${saved.name}”`;
      replaceChildren(shown, listLinks(saved, lists));
      context.announce('Customer group saved');
    },
    actions: [
      ...(pricing
        ? [
            actionButton(
              'Delete group',
              async () => {
                if (
                  !(await confirmAction({
                    title: `Delete the customer group “${group.name}”?`,
                    details: ['Its customers then belong to no group, and pay what their own lists or the catalog give; its price lists stay.'],
                    confirmLabel: 'Delete group',
                  }))
                )
                  return;
                await context.api.customerGroups.delete(groupId);
                context.announce('Customer group deleted');
                context.navigate('#/customer-groups');
              },
              alert,
            ),
          ]
        : []),
    ],
  });
  const members = membersSection(context, groupId, alert);
  context.main.append(
    section('Price lists, in order', h('p', {}, 'After each customer’s own lists.'), shown),
    section(
      'Settings',
      context.canChange ? settings.element : h('p', {}, `As a ${context.member?.role ?? 'viewer'} you see the group; changing it needs an editor’s role.`),
      context.canChange && !pricing
        ? approvalNotice(
            'only the group’s name changes here. Its price lists, its policy, its customers and deleting it change what its customers pay: ask the store’s owner.',
            false,
          )
        : null,
    ),
    members.element,
  );
  await members.reload();
};

function membersSection(context: ViewContext, groupId: number, alert: AlertBox) {
  const body = h('div', {});
  const load = async (): Promise<void> => {
    const customers = await collect(context.api.customers.iterate({ customerGroupId: groupId }));
    replaceChildren(
      body,
      customers.length === 0
        ? h('p', {}, 'No customer is in this group.')
        : table(
            'Customers of this group',
            context.canChangePrices ? ['Customer', 'Email', 'Actions'] : ['Customer', 'Email'],
            customers.map((customer) => [
              h('a', { href: `#/customers/${customer.id}` }, customerName(customer)),
              customer.email,
              ...(context.canChangePrices
                ? [
                    h(
                      'div',
                      { class: 'row-actions' },
                      actionButton(
                        'Remove',
                        async () => {
                          await context.api.customers.update(customer.id, { customerGroupId: null });
                          context.announce(`${customerName(customer)} removed from the group`);
                          await load();
                        },
                        alert,
                        { 'aria-label': `Remove ${customerName(customer)} from this group` },
                      ),
                    ),
                  ]
                : []),
            ]),
          ),
    );
  };
  const add = new Form({
    label: 'Add a customer',
    submitLabel: 'Add customer',
    fields: [{ name: 'customer', label: 'Customer', hint: 'Id or email. A customer is in one group at most: this moves it from any other.' }],
    aliases: { customerGroupId: 'customer' },
    onSubmit: async (form) => {
      const customer = await findCustomer(context.api, form.value('customer'));
      if (customer === undefined) return form.showFieldError('customer', 'no customer of this store has this id or email');
      await context.api.customers.update(customer.id, { customerGroupId: groupId });
      form.setValue('customer', '');
      context.announce(`${customerName(customer)} is in the group`);
      await load();
    },
  });
  return { element: section('Customers', body, context.canChangePrices ? h('div', {}, h('h3', {}, 'Add a customer'), add.element) : ''), reload: load };
}
