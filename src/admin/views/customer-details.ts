import type { Customer } from '../../contract/customers.js';
import type { CustomerGroup } from '../../contract/customer-groups.js';
import { h } from '../dom.js';
import { Form } from '../forms.js';
import { actionButton, type AlertBox, approvalNotice, type ViewContext } from '../view.js';
import { customerFields, customerFromForm, customerName } from './customers.js';

/** The details list, shown again (`show`) when the customer changes; `element` is the one on the page. */
export interface CustomerDetails {
  readonly element: HTMLElement;
  show(customer: Customer): void;
}

/** What the details name besides the customer: its group, and its price lists' names. */
export interface DetailsNames {
  group: CustomerGroup | undefined;
  listNames: ReadonlyMap<number, string>;
  /** A list's name as the page's announcements quote it. */
  listName: (id: number) => string;
}

/**
 * One customer's details: e-mail, company, whether it is a trade customer and active, its price
 * lists in order (reordered here by whoever may change prices) and its group.
 */
export function customerDetails(context: ViewContext, customer: Customer, { group, listNames, listName }: DetailsNames, alert: AlertBox): CustomerDetails {
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
          : context.canChangePrices
            ? listOrder(customer)
            : h(
                'ol',
                { class: 'inline-list' },
                ...customer.priceListIds.map((id) => h('li', {}, h('a', { href: `#/price-lists/${id}` }, listNames.get(id) ?? `List ${id}`))),
              ),
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
      const button = details.querySelector<HTMLButtonElement>(
        `[data-list="${moved!}"][data-move="${to === 0 || to === ids.length - 1 ? (direction === 'up' ? 'down' : 'up') : direction}"]`,
      );
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
        index === 0
          ? null
          : actionButton('Move up', () => move(index, index - 1, 'up'), alert, {
              'aria-label': `Move ${listName(id)} up`,
              'data-list': String(id),
              'data-move': 'up',
            }),
        index === shown.priceListIds.length - 1
          ? null
          : actionButton('Move down', () => move(index, index + 1, 'down'), alert, {
              'aria-label': `Move ${listName(id)} down`,
              'data-list': String(id),
              'data-move': 'down',
            }),
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
  return {
    get element() {
      return details;
    },
    show: showDetails,
  };
}

/**
 * "Edit details": the customer's own fields (`PUT /v1/customers/{id}`), folded away until opened.
 * Where the store requires approval, without the trade flag: it decides whether the customer's
 * trade prices count, so sending it is a price change the API refuses there.
 */
export function customerEditSection(context: ViewContext, customer: Customer, saved: (customer: Customer) => void): HTMLElement {
  const withTrade = !context.approvalRequired;
  const form = new Form({
    label: 'Edit the customer',
    submitLabel: 'Save details',
    fields: customerFields(customer, { trade: withTrade }),
    grid: true,
    onSubmit: async (form) => {
      let updated: Customer;
      try {
        updated = await context.api.customers.update(customer.id, customerFromForm(form, { trade: withTrade }));
      } catch (error) {
        return form.showError(error);
      }
      saved(updated);
      context.announce(`Details of ${customerName(updated)} saved`);
    },
  });
  return h(
    'details',
    { class: 'edit-details' },
    h('summary', {}, withTrade ? 'Edit details (name, company, trade, active)' : 'Edit details (name, company, active)'),
    withTrade
      ? null
      : approvalNotice(
          'whether the customer is a trade customer decides whether its trade prices count, and is not changed here: ask the store’s owner.',
          false,
        ),
    form.element,
  );
}
