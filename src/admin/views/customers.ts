import type { Customer, CustomerInput } from '../../contract/customers.js';
import { collect } from '../collect.js';
import { h, replaceChildren, table, uniqueId } from '../dom.js';
import { formPanel } from '../dialog.js';
import { type FieldSpec, Form } from '../forms.js';
import { alertBox, type View } from '../view.js';

/** Matches shown at once; a longer list asks for a narrower search. */
const SHOWN = 50;

/** The person's name ("Ada Lovelace"), else the company, else the email: a table's Name column, beside the company's own. */
export function personName(customer: Pick<Customer, 'firstName' | 'lastName' | 'companyName' | 'email'>): string {
  const person = [customer.firstName, customer.lastName].filter((part) => part !== null && part !== '').join(' ');
  return person !== '' ? person : (customer.companyName ?? customer.email);
}

/** A customer's name as people say it: "Ada Lovelace (Analytical Ltd)", or the email. */
export function customerName(customer: Pick<Customer, 'firstName' | 'lastName' | 'companyName' | 'email'>): string {
  const person = [customer.firstName, customer.lastName].filter((part) => part !== null && part !== '').join(' ');
  if (person !== '' && customer.companyName !== null) return `${person} (${customer.companyName})`;
  return person !== '' ? person : (customer.companyName ?? customer.email);
}

const YES_NO = [
  { value: 'true', label: 'Yes' },
  { value: 'false', label: 'No' },
];

/** A customer's own fields, as the API names them (its price lists and group are set elsewhere); `trade: false` leaves out the trade flag. */
export function customerFields(customer?: Customer, { trade = true } = {}): FieldSpec[] {
  const fields: FieldSpec[] = [
    { name: 'email', label: 'Email', type: 'email', autocomplete: 'off', value: customer?.email },
    { name: 'firstName', label: 'First name', value: customer?.firstName ?? '' },
    { name: 'lastName', label: 'Last name', value: customer?.lastName ?? '' },
    { name: 'companyName', label: 'Company', value: customer?.companyName ?? '' },
    {
      name: 'trade',
      label: 'Trade customer',
      type: 'select',
      options: YES_NO,
      value: String(customer?.trade ?? true),
      hint: 'Yes: their own trade prices apply.',
    },
    { name: 'active', label: 'Active', type: 'select', options: YES_NO, value: String(customer?.active ?? true) },
  ];
  return trade ? fields : fields.filter((field) => field.name !== 'trade');
}

/** The fields a customer form asks for: an empty name is none (null); the API judges the rest. `trade: false`: the form has no trade flag, none is sent. */
export function customerFromForm(form: Form, { trade = true } = {}): CustomerInput {
  const name = (field: string) => (form.value(field) === '' ? null : form.value(field));
  return {
    email: form.value('email'),
    firstName: name('firstName'),
    lastName: name('lastName'),
    companyName: name('companyName'),
    ...(trade && { trade: form.value('trade') === 'true' }),
    active: form.value('active') === 'true',
  };
}

/**
 * Customers, searched by name, email or company. The API filters by exact email only, so the
 * page reads every customer (pages of 100) when the view opens and searches them in the
 * browser: fine for a shop's customer list (thousands), not for millions.
 */
export const customersView: View = async (context) => {
  context.heading('Customers');
  const alert = alertBox();
  const searchId = uniqueId('search');
  const search = h('input', { id: searchId, type: 'search', autocomplete: 'off', 'aria-describedby': `${searchId}-hint` });
  const summary = h('p', { class: 'summary', role: 'status' }, 'Loading customers…');
  const results = h('div', {});
  /** Above the list: the button that adds a customer, for those who may. */
  const toolbar = h('div', { class: 'toolbar' });
  context.main.append(
    h(
      'form',
      { role: 'search', 'aria-label': 'Customers', class: 'search' },
      h('label', { for: searchId }, 'Search by name, email or company'),
      h('p', { class: 'hint', id: `${searchId}-hint` }, 'Results show as you type.'),
      search,
    ),
    alert,
    toolbar,
    summary,
    results,
  );
  search.form?.addEventListener('submit', (event) => event.preventDefault());

  let customers: Customer[] = [];
  const show = () => {
    const words = search.value
      .toLowerCase()
      .split(/\s+/)
      .filter((word) => word !== '');
    const matches = customers.filter((customer) => {
      const text = [customer.firstName, customer.lastName, customer.companyName, customer.email].join(' ').toLowerCase();
      return words.every((word) => text.includes(word));
    });
    const shown = matches.slice(0, SHOWN);
    replaceChildren(
      summary,
      words.length === 0 ? `${customers.length} customers` : `${matches.length} of ${customers.length} customers match`,
      matches.length > SHOWN ? `; the first ${SHOWN} are shown, narrow the search to see others` : '',
    );
    replaceChildren(
      results,
      shown.length === 0
        ? null
        : table(
            'Customers',
            ['Name', 'Email', 'Company', 'Trade customer'],
            shown.map((customer) => [
              h('a', { href: `#/customers/${customer.id}` }, personName(customer)),
              customer.email,
              customer.companyName ?? '',
              customer.trade ? 'Yes' : 'No',
            ]),
          ),
    );
  };
  search.addEventListener('input', show);
  if (context.canChange) {
    const close = h('button', { type: 'button', class: 'secondary' }, 'Close');
    const create = new Form({
      label: 'Add a customer',
      submitLabel: 'Add customer',
      fields: customerFields(),
      actions: [close],
      grid: true,
      onSubmit: async (form) => {
        let created: Customer;
        try {
          created = await context.api.customers.create(customerFromForm(form));
        } catch (error) {
          return form.showError(error);
        }
        panel.close();
        context.announce(`Customer ${customerName(created)} added`);
        context.navigate(`#/customers/${created.id}`);
      },
    });
    // Opened by its button above the list, in a panel: the list stays where it is.
    const panel = formPanel('Add a customer', [create.element], () => create.clearErrors());
    close.addEventListener('click', () => panel.close());
    toolbar.append(panel.opener);
    context.main.append(panel.element);
  }
  try {
    customers = await collect(context.api.customers.iterate({ fields: 'id,email,firstName,lastName,companyName,trade' }));
    show();
  } catch (error) {
    replaceChildren(summary);
    alert.show(error);
  }
};
