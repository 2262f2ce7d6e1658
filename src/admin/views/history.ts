import type { PriceHistoryCountQuery, PriceHistoryEntry } from '@pricebook/client/browser';
import { formatMoment, h, replaceChildren, table } from '../dom.js';
import { Form } from '../forms.js';
import { alertBox, loadInto, pager, section, type ViewContext } from '../view.js';
import { customerNames, nameIn } from './customer-names.js';

/** Entries per page of the table. */
const PAGE = 20;

export interface HistorySection {
  element: HTMLElement;
  /** Reads the current page again (after the page itself changed something). */
  reload(): Promise<void>;
}

/** Whose history a section shows: a customer's, a price list's or a product's (its SKUs'). */
export type HistoryFilter = Pick<PriceHistoryCountQuery, 'customerId' | 'priceListId' | 'productId'>;

/**
 * The price history of a customer, a price list or a product: every change recorded, newest
 * first, paged, narrowed to one SKU when one is asked for — when, who (the staff member or the
 * API key), what, old → new, and how it came (API, admin page, import). A price changed by a
 * replace (the API deletes the old record and creates the new one) is one row, old → new. Every
 * value is set as text.
 */
export function historySection(context: ViewContext, filter: HistoryFilter, caption: string): HistorySection {
  let offset = 0;
  const alert = alertBox();
  const body = h('div', {}, h('p', {}, 'Loading the history…'));
  const skuForm = new Form({
    label: `${caption}: one SKU`,
    submitLabel: 'Show its changes',
    fields: [{ name: 'sku', label: 'SKU', hint: 'Only the changes of this SKU, exactly; empty: every change.' }],
    actions: [h('button', { type: 'reset' }, 'Show all')],
    grid: true,
    onSubmit: async () => {
      offset = 0;
      await load();
    },
  });
  skuForm.element.addEventListener('reset', () => {
    offset = 0;
    setTimeout(() => void reload());
  });
  const load = async (): Promise<void> => {
    const current = loadInto(body);
    const sku = skuForm.value('sku');
    const query = { ...filter, ...(sku === '' ? {} : { sku }) };
    const [page, total] = await Promise.all([context.api.priceHistory.list({ ...query, count: PAGE, offset }), context.api.priceHistory.count(query)]);
    const rows = historyRows(page);
    // Whose price each row is, where the section is not already one customer's.
    const names =
      filter.customerId === undefined
        ? await customerNames(
            context.api,
            rows.map((row) => customerOf(row.entry)),
          )
        : new Map<number, string>();
    if (!current()) return;
    alert.clear();
    replaceChildren(
      body,
      page.length === 0
        ? h('p', {}, total === 0 ? (sku === '' ? 'No changes recorded yet.' : `No changes of ${sku} recorded.`) : 'No changes on this page.')
        : table(
            caption,
            ['When', 'Who', 'What', 'Old → new', 'Source'],
            rows.map((row) => [formatMoment(row.entry.at), actorText(row.entry), rowWhat(row, names), rowChange(row), sourceText(row.entry)]),
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
      skuForm.element,
      alert,
      body,
    ),
    reload,
  };
}

/** A row of the table: one entry, or a price's deletion and the creation that replaced it. */
export interface HistoryRow {
  /** The entry the row is dated and attributed by (the creation, for a replaced price). */
  entry: PriceHistoryEntry;
  /** The deletion a replaced price's creation stands beside. */
  replaced?: PriceHistoryEntry;
}

/** The kinds of record a replace deletes and creates anew (`POST /v1/trade-customer-product-prices/replace`, `POST /v1/price-lists/{id}/prices/replace`, an import in replace mode). */
const REPLACED: ReadonlySet<PriceHistoryEntry['resource']> = new Set(['trade_price', 'price_list_entry']);

/**
 * The entries of a page as rows, in their order: a price's deletion and a creation of the same
 * change (one request, or one import or change set at one moment) for the same customer or list,
 * SKU and starting quantity become one row, where the creation is; every other entry is a row
 * of its own. Pairs split by the page's edge stay two rows.
 */
export function historyRows(entries: readonly PriceHistoryEntry[]): HistoryRow[] {
  const taken = new Set<PriceHistoryEntry>();
  const rows: HistoryRow[] = [];
  for (const entry of entries) {
    if (taken.has(entry)) continue;
    const partner =
      REPLACED.has(entry.resource) && entry.change !== 'updated'
        ? entries.find((other) => !taken.has(other) && other !== entry && replaces(entry, other))
        : undefined;
    if (partner === undefined) {
      rows.push({ entry });
      continue;
    }
    taken.add(partner);
    const [created, deleted] = entry.change === 'created' ? [entry, partner] : [partner, entry];
    rows.push({ entry: created, replaced: deleted });
  }
  return rows;
}

/** Whether one of `a` and `b` deletes a price and the other creates its successor in the same change. */
function replaces(a: PriceHistoryEntry, b: PriceHistoryEntry): boolean {
  if (a.resource !== b.resource || a.change === b.change || b.change === 'updated') return false;
  const sameChange =
    a.requestId !== null ? a.requestId === b.requestId : b.requestId === null && a.at === b.at && a.source === b.source && a.sourceId === b.sourceId;
  if (!sameChange) return false;
  const gone = (a.before ?? b.before)!;
  const made = (a.after ?? b.after)!;
  return ['customerId', 'priceListId', 'sku', 'minQuantity'].every((field) => valueText(gone[field]) === valueText(made[field]));
}

function customerOf(entry: PriceHistoryEntry): number | undefined {
  if (entry.resource === 'customer') return entry.resourceId;
  const value = (entry.after ?? entry.before)?.customerId;
  return typeof value === 'number' ? value : undefined;
}

function rowWhat(row: HistoryRow, names: ReadonlyMap<number, string>): string {
  const customer = row.entry.resource === 'trade_price' ? customerOf(row.entry) : undefined;
  const whose = customer !== undefined && names.size > 0 ? ` of ${nameIn(names, customer)}` : '';
  if (row.replaced === undefined) return whatText(row.entry, whose);
  const sku = (row.entry.after?.sku as string | undefined) ?? '';
  return `${RESOURCE_TEXT[row.entry.resource]} #${row.replaced.resourceId} → #${row.entry.resourceId} (${sku})${whose} changed`;
}

function rowChange(row: HistoryRow): string {
  if (row.replaced === undefined) return changeText(row.entry);
  return changeText({ ...row.entry, change: 'updated', before: row.replaced.before });
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

/** `Trade price #12 (MUG-1) created`; `whose` goes before the change (` of Ada Lovelace`). */
export function whatText(entry: PriceHistoryEntry, whose = ''): string {
  const record = entry.after ?? entry.before;
  const sku = typeof record?.sku === 'string' && entry.resource !== 'product' && entry.resource !== 'variation' ? ` (${record.sku})` : '';
  return `${RESOURCE_TEXT[entry.resource]} #${entry.resourceId}${sku}${whose} ${entry.change}`;
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
