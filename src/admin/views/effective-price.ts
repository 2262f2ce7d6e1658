import { type EffectivePriceQuery, PricebookError } from '@pricebook/client/browser';
import type { EffectivePrice, PriceCandidate } from '../../contract/trade-prices.js';
import { append, formatMoment, h, momentFromInput, replaceChildren, table, withLocalMoments } from '../dom.js';
import { Form, numberOrText } from '../forms.js';
import { money } from '../money.js';
import { alertBox, section, type ViewContext } from '../view.js';

/** Candidates the API answers at most at a time (its `candidatesCount` maximum). */
const PAGE = 100;

export interface EffectivePricePanel {
  element: HTMLElement;
  /** Fills the form and explains that SKU and quantity at once. */
  explain(sku: string, quantity?: number): Promise<void>;
}

/**
 * "What does this customer pay for SKU S, Q units, at moment T, and why": the effective-price
 * endpoint's answer, with every candidate the rule looked at and why each lost. With an "As of"
 * moment, the question is asked with `at=`: the answer the server gave (or would have given)
 * then, from the prices, lists, assignments and catalog as they were at that moment.
 */
export function effectivePricePanel(context: ViewContext, customerId: number, listName: (id: number) => string): EffectivePricePanel {
  const result = h('div', { class: 'effective', 'aria-live': 'polite' });
  const form = new Form({
    label: 'Effective price',
    submitLabel: 'Explain the price',
    grid: true,
    fields: [
      { name: 'sku', label: 'SKU' },
      { name: 'quantity', label: 'Quantity', inputmode: 'numeric', value: '1' },
      {
        name: 'at',
        label: 'As of',
        type: 'datetime-local',
        hint: 'Empty: now. A past moment answers as the price book was then, with records deleted since. Your local time.',
      },
    ],
    onSubmit: async (form) => {
      // Sent as typed: the API judges the quantity (a 400 shown at its field).
      const query = {
        customerId,
        sku: form.value('sku'),
        quantity: numberOrText(form.value('quantity')),
        at: momentFromInput(form.value('at')),
      } as EffectivePriceQuery;
      try {
        const answer = await context.api.tradePrices.effective(query);
        // Further pages of candidates are asked for at the moment this answer priced.
        const more = (offset: number) => context.api.tradePrices.effective({ ...query, at: answer.at, candidatesOffset: offset });
        replaceChildren(result, ...describe(answer, listName, more, query.at !== undefined));
      } catch (error) {
        replaceChildren(result);
        // 404: no such SKU in the store (the customer is the page's own).
        if (error instanceof PricebookError && error.status === 404 && query.sku !== '') return form.showFieldError('sku', error.message);
        throw error;
      }
    },
  });
  const element = section(
    'Effective price',
    h('p', {}, 'What the customer pays for a SKU and quantity, and every price the rule looked at.'),
    h(
      'details',
      {},
      h('summary', {}, 'How the price is chosen'),
      h(
        'ol',
        {},
        h(
          'li',
          {},
          'The customer’s own trade prices (only while the customer is a trade customer) valid at that moment and for that quantity: the highest quantity break wins, then the newest.',
        ),
        h(
          'li',
          {},
          'Otherwise the customer’s price lists in their order: the first fixed list with such an entry, or the first percentage list, whichever comes first.',
        ),
        h('li', {}, 'Otherwise the variation’s own price, then the product’s price.'),
        h('li', {}, 'A lowest-price list takes no turn: the customer pays its price wherever it is lower than what the steps above give.'),
      ),
    ),
    form.element,
    result,
  );
  return {
    element,
    async explain(sku, quantity = 1) {
      form.setValue('sku', sku);
      form.setValue('quantity', String(quantity));
      await form.submit();
    },
  };
}

const SOURCE_TEXT: Readonly<Record<EffectivePrice['source'], string>> = {
  trade: 'the customer’s own trade price',
  price_list: 'a price list',
  variation: 'the variation’s own price (no trade or list price applies)',
  product: 'the product’s price (no trade or list price applies)',
};

function describe(
  answer: EffectivePrice,
  listName: (id: number) => string,
  more: (offset: number) => Promise<EffectivePrice>,
  asOf: boolean,
): (HTMLElement | null)[] {
  const origin =
    answer.source === 'trade'
      ? `${SOURCE_TEXT.trade} #${answer.tradePriceId ?? '?'}`
      : answer.source === 'price_list' && answer.priceListId !== null
        ? `the price list ${listName(answer.priceListId)}${answer.priceListPriceId === null ? ' (a percentage off the catalog price)' : `, entry #${answer.priceListPriceId}`}`
        : SOURCE_TEXT[answer.source];
  const changes = [
    answer.validUntil === null ? null : `This price applies until ${formatMoment(answer.validUntil)}.`,
    answer.nextChangeAt === null ? 'Nothing scheduled changes this answer.' : `The answer changes next at ${formatMoment(answer.nextChangeAt)}.`,
  ].filter((line) => line !== null);
  return [
    h(
      'p',
      { class: 'price-line' },
      h('strong', { class: 'price' }, money(answer.price)),
      ` per unit for ${answer.quantity} × ${answer.sku} ${asOf ? 'as of' : 'at'} ${formatMoment(answer.at)}`,
    ),
    asOf
      ? h(
          'p',
          { class: 'notice as-of' },
          `As of ${formatMoment(answer.at)}: the price book as it was at that moment (its trade prices, list entries, lists and catalog prices then, including records deleted since), not as it is now.`,
        )
      : null,
    h('p', {}, [`From ${origin}.`, ...changes].join(' ')),
    answer.quantityRule === null ? null : h('p', { class: 'quantity-rule' }, quantityRuleText(answer.quantityRule)),
    answer.candidateCount === 0
      ? h('p', {}, 'No trade price or price list entry was considered: the catalog price applies.')
      : candidatesTable(answer, listName, more),
  ];
}

/** A quantity rule as staff read it: "Orders of this SKU: at least 24, at most 480, in multiples of 12." */
function quantityRuleText(rule: NonNullable<EffectivePrice['quantityRule']>): string {
  const parts = [
    `at least ${rule.minimum}`,
    ...(rule.maximum === null ? [] : [`at most ${rule.maximum}`]),
    ...(rule.increment === 1 ? [] : [`in multiples of ${rule.increment}`]),
  ];
  return `Quotes and orders of this SKU take ${parts.join(', ')} units a line.`;
}

/**
 * The candidates in the order the rule looks at them: the API answers at most 100 at a time, so
 * the table says how many of how many it shows, and a button adds the next ones.
 */
function candidatesTable(answer: EffectivePrice, listName: (id: number) => string, more: (offset: number) => Promise<EffectivePrice>): HTMLElement {
  const rowsOf = (candidates: readonly PriceCandidate[]) =>
    candidates.map((candidate) => [
      candidateName(candidate, listName),
      candidate.unroundedPrice === undefined || candidate.unroundedPrice === candidate.price
        ? money(candidate.price)
        : `${money(candidate.price)} (${money(candidate.unroundedPrice)} before rounding)`,
      String(candidate.minQuantity),
      formatMoment(candidate.validFrom),
      formatMoment(candidate.validUntil),
      candidate.applies ? h('strong', {}, 'Applies') : 'No',
      candidate.reason === null ? '' : withLocalMoments(candidate.reason),
    ]);
  const shown = table(
    'Candidates, in the order the rule looks at them',
    ['Candidate', 'Price', 'From quantity', 'Valid from', 'Valid until', 'Applies', 'Why not'],
    rowsOf(answer.candidates),
  );
  const total = answer.candidateCount;
  let count = answer.candidates.length;
  if (count >= total) return shown;
  const status = h('p', { class: 'summary', role: 'status' });
  const button = h('button', { type: 'button' });
  const label = () => {
    status.textContent = count >= total ? `Showing all ${total} candidates.` : `Showing the first ${count} of ${total} candidates.`;
    button.textContent = `Show the next ${Math.min(PAGE, total - count)} candidates`;
    button.hidden = count >= total;
  };
  label();
  const alert = alertBox();
  button.addEventListener('click', () => {
    if (button.disabled) return;
    button.disabled = true;
    alert.clear();
    more(count)
      .then((page) => {
        append(
          shown.querySelector('tbody')!,
          rowsOf(page.candidates).map((cells) => h('tr', {}, ...cells.map((cell) => h('td', {}, cell)))),
        );
        // Nothing more to show if the answer changed meanwhile (records deleted).
        count = page.candidates.length === 0 ? total : count + page.candidates.length;
        label();
      })
      .catch((error: unknown) => alert.show(error))
      .finally(() => {
        button.disabled = false;
      });
  });
  return h('div', {}, shown, status, h('div', { class: 'actions' }, button), alert);
}

function candidateName(candidate: PriceCandidate, listName: (id: number) => string): string {
  if (candidate.source === 'trade') return `Trade price #${candidate.tradePriceId ?? '?'}`;
  const list = candidate.priceListId === null ? 'Price list' : `Price list ${listName(candidate.priceListId)}`;
  const named = candidate.priceListPriceId === null ? `${list} (percentage)` : `${list}, entry #${candidate.priceListPriceId}`;
  return candidate.customerGroupId === undefined ? named : `${named}, through the customer’s group`;
}
