import type { PriceHistoryCountQuery, PriceHistoryEntry } from '@pricebook/client/browser';
import { formatMoment, h, replaceChildren, table } from '../dom.js';
import { alertBox, pager, section, type ViewContext } from '../view.js';

/** Entries per page of the table. */
const PAGE = 20;

export interface HistorySection {
  element: HTMLElement;
  /** Reads the current page again (after the page itself changed something). */
  reload(): Promise<void>;
}

/**
 * The price history of a customer (`customerId`) or of a price list (`priceListId`): every change
 * recorded, newest first, paged — when, who (the staff member or the API key), what, old → new,
 * and how it came (API, admin page, import). Every value is set as text.
 */
export function historySection(context: ViewContext, filter: Pick<PriceHistoryCountQuery, 'customerId' | 'priceListId'>, caption: string): HistorySection {
  let offset = 0;
  const alert = alertBox();
  const body = h('div', {}, h('p', {}, 'Loading the history…'));
  const load = async (): Promise<void> => {
    const [page, total] = await Promise.all([context.api.priceHistory.list({ ...filter, count: PAGE, offset }), context.api.priceHistory.count(filter)]);
    alert.clear();
    replaceChildren(
      body,
      page.length === 0
        ? h('p', {}, total === 0 ? 'No changes recorded yet.' : 'No changes on this page.')
        : table(
            caption,
            ['When', 'Who', 'What', 'Old → new', 'Source'],
            page.map((entry) => [formatMoment(entry.at), actorText(entry), whatText(entry), changeText(entry), sourceText(entry)]),
          ),
      pager({
        offset,
        count: PAGE,
        total,
        shown: page.length,
        label: caption,
        onPage: (next) => {
          offset = next;
          void load().catch((error: unknown) => alert.show(error));
        },
      }),
    );
  };
  const reload = async () => {
    try {
      await load();
    } catch (error) {
      replaceChildren(body);
      alert.show(error);
    }
  };
  return {
    element: section(
      'History',
      h('p', {}, 'Every change, newest first: who made it, when, what it was before and after, and how it came (the API, this page, an import).'),
      alert,
      body,
    ),
    reload,
  };
}

const RESOURCE_TEXT: Readonly<Record<PriceHistoryEntry['resource'], string>> = {
  trade_price: 'Trade price',
  price_list_entry: 'List entry',
  price_list: 'Price list',
  customer: 'Customer',
  customer_group: 'Customer group',
  product: 'Product',
  variation: 'Variation',
  change_set: 'Change set',
};

/** The fields of each kind of record whose change matters to a price, in the order they are told. */
const KEY_FIELDS: Readonly<Record<PriceHistoryEntry['resource'], readonly string[]>> = {
  trade_price: ['price', 'minQuantity', 'validFrom', 'validUntil'],
  price_list_entry: ['price', 'minQuantity', 'validFrom', 'validUntil'],
  price_list: ['name', 'percentage', 'policy', 'rounding'],
  customer: ['priceListIds', 'customerGroupId', 'trade', 'active'],
  customer_group: ['name', 'priceListIds'],
  product: ['price', 'sku', 'active'],
  variation: ['price', 'sku'],
  change_set: ['state', 'revision', 'operations', 'applyAt'],
};

const FIELD_TEXT: Readonly<Record<string, string>> = {
  price: 'price',
  minQuantity: 'from quantity',
  validFrom: 'valid from',
  validUntil: 'valid until',
  name: 'name',
  percentage: 'percentage off',
  policy: 'policy',
  rounding: 'rounding',
  priceListIds: 'lists',
  customerGroupId: 'group',
  trade: 'trade',
  active: 'active',
  sku: 'SKU',
};

/** `Ada Admin (staff)`, `ERP sync (API key)`. */
export function actorText(entry: PriceHistoryEntry): string {
  return `${entry.actor.name} (${entry.actor.type === 'staff' ? 'staff' : 'API key'})`;
}

/** `Trade price #12 (MUG-1) created`. */
export function whatText(entry: PriceHistoryEntry): string {
  const record = entry.after ?? entry.before;
  const sku = typeof record?.sku === 'string' && entry.resource !== 'product' && entry.resource !== 'variation' ? ` (${record.sku})` : '';
  return `${RESOURCE_TEXT[entry.resource]} #${entry.resourceId}${sku} ${entry.change}`;
}

/** `API`, `admin`, `import #12`, `change set #3`. */
export function sourceText(entry: PriceHistoryEntry): string {
  switch (entry.source) {
    case 'api':
      return 'API';
    case 'admin':
      return 'admin';
    case 'import':
      return `import #${entry.sourceId ?? '?'}`;
    case 'changeset':
      return `change set #${entry.sourceId ?? '?'}`;
  }
}

/**
 * Old → new: `price 9.75 → 9.5; lists [3,1] → [1]` for an update, the record's values for a
 * creation (`price 9.75, from quantity 1`), and `deleted (was price 9.75, …)` for a deletion.
 */
export function changeText(entry: PriceHistoryEntry): string {
  const fields = KEY_FIELDS[entry.resource];
  const { before, after } = entry;
  if (before === null && after !== null)
    return fields
      .filter((field) => field in after && after[field] !== null)
      .map((field) => `${FIELD_TEXT[field] ?? field} ${valueText(after[field])}`)
      .join(', ');
  if (after === null && before !== null) {
    const was = fields.filter((field) => field in before && before[field] !== null).map((field) => `${FIELD_TEXT[field] ?? field} ${valueText(before[field])}`);
    return was.length === 0 ? 'deleted' : `deleted (was ${was.join(', ')})`;
  }
  if (before === null || after === null) return entry.change;
  const changed = fields.filter((field) => valueText(before[field]) !== valueText(after[field]));
  if (changed.length === 0) return 'no change to its price';
  return changed.map((field) => `${FIELD_TEXT[field] ?? field} ${valueText(before[field])} → ${valueText(after[field])}`).join('; ');
}

const MOMENT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

/** A value of a record as text: `9.75`, `[3,1]`, `none`, `yes`, a moment in the page's date format, `“Resellers”`. */
function valueText(value: unknown): string {
  if (value === null || value === undefined) return 'none';
  if (typeof value === 'number') return String(value);
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (Array.isArray(value)) return `[${value.map((item) => (typeof item === 'number' ? String(item) : JSON.stringify(item))).join(',')}]`;
  if (typeof value === 'string') return MOMENT.test(value) ? formatMoment(value) : `“${value}”`;
  // A list's rounding: `0.05 up`.
  const { increment, mode } = value as { increment?: unknown; mode?: unknown };
  if (typeof increment === 'number' && typeof mode === 'string') return `${increment} ${mode}`;
  return JSON.stringify(value);
}
