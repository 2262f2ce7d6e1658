/** What `h` accepts as children: nodes, text (always as text, never parsed as HTML), or nothing. */
export type Child = Node | string | number | null | undefined | false;

type AttributeValue = string | number | boolean | null | undefined;
type Handler = (event: Event) => void;

/** Attributes by name; `on<event>` names take a listener, `false`/null/undefined leave the attribute out. */
export type Attributes = Record<string, AttributeValue | Handler>;

/**
 * An element with attributes and children. Text from the API goes in as text nodes: the page
 * never sets `innerHTML`, so no record can inject markup.
 */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attributes: Attributes = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (typeof value === 'function') element.addEventListener(name.slice(2).toLowerCase(), value);
    else if (value === true) element.setAttribute(name, '');
    else if (value !== false && value !== null && value !== undefined) element.setAttribute(name, String(value));
  }
  append(element, children);
  return element;
}

export function append(parent: Node, children: readonly Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === 'string' || typeof child === 'number' ? document.createTextNode(String(child)) : child);
  }
}

/** Replaces an element's children. */
export function replaceChildren(parent: Element, ...children: Child[]): void {
  parent.replaceChildren();
  append(parent, children);
}

let sequence = 0;
/** A document-unique id for labels and descriptions. */
export function uniqueId(prefix: string): string {
  return `${prefix}-${++sequence}`;
}

/** A table inside a scrolling box, so a wide table never makes the page scroll sideways. */
export function table(caption: string, headers: readonly string[], rows: readonly (readonly Child[])[]): HTMLElement {
  return h(
    'div',
    { class: 'table-scroll', role: 'region', 'aria-label': caption, tabindex: 0 },
    h(
      'table',
      {},
      h('caption', { class: 'visually-hidden' }, caption),
      h('thead', {}, h('tr', {}, ...headers.map((header) => h('th', { scope: 'col' }, header)))),
      h('tbody', {}, ...rows.map((cells) => h('tr', {}, ...cells.map((cell) => h('td', {}, cell))))),
    ),
  );
}

/** A column of a sortable table: its header, and the API's `sort` name when the table sorts by it. */
export interface SortableColumn {
  label: string;
  sort?: string;
}

/** The order a sortable table shows: a column's `sort` name, and the direction. */
export interface TableOrder {
  sort: string;
  descending: boolean;
}

/**
 * `table`, with a button in each sortable column's header (`aria-sort` says the current order;
 * a click sorts by that column, again: the other way) and the rows of `marked` ids highlighted.
 */
export function sortableTable(options: {
  caption: string;
  columns: readonly SortableColumn[];
  rows: readonly { id: number; cells: readonly Child[] }[];
  order: TableOrder;
  onSort: (order: TableOrder) => void;
  marked?: ReadonlySet<number>;
}): HTMLElement {
  const { order } = options;
  const header = (column: SortableColumn) => {
    if (column.sort === undefined) return h('th', { scope: 'col' }, column.label);
    const current = column.sort === order.sort;
    const next = { sort: column.sort, descending: current ? !order.descending : false };
    return h(
      'th',
      { scope: 'col', 'aria-sort': current ? (order.descending ? 'descending' : 'ascending') : null },
      h(
        'button',
        {
          type: 'button',
          class: 'sort',
          onclick: () => options.onSort(next),
          title: `Sort by ${column.label.toLowerCase()}, ${next.descending ? 'descending' : 'ascending'}`,
        },
        column.label,
        h('span', { class: 'sort-mark', 'aria-hidden': 'true' }, current ? (order.descending ? ' ▼' : ' ▲') : ''),
      ),
    );
  };
  return h(
    'div',
    { class: 'table-scroll', role: 'region', 'aria-label': options.caption, tabindex: 0 },
    h(
      'table',
      {},
      h('caption', { class: 'visually-hidden' }, options.caption),
      h('thead', {}, h('tr', {}, ...options.columns.map(header))),
      h(
        'tbody',
        {},
        ...options.rows.map((row) =>
          h('tr', { class: options.marked?.has(row.id) === true ? 'marked' : null, 'data-id': row.id }, ...row.cells.map((cell) => h('td', {}, cell))),
        ),
      ),
    ),
  );
}

/** `2026-12-01T00:00:00.000Z` as `2026-12-01 01:00` in the browser's time zone; empty for null. */
export function formatMoment(value: string | null): string {
  if (value === null) return '';
  const date = new Date(value);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** Text from the API with its ISO 8601 moments (`2027-01-01T00:00:00.000Z`) as `formatMoment` shows them. */
export function withLocalMoments(text: string): string {
  return text.replace(/\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z\b/g, (moment) => formatMoment(moment));
}

/** A price's window in words: "valid always", "valid from 2027-01-01 00:00", "valid from … until …". */
export function validityText(record: { validFrom: string | null; validUntil: string | null }): string {
  if (record.validFrom === null && record.validUntil === null) return 'valid always';
  return [
    'valid',
    record.validFrom === null ? null : `from ${formatMoment(record.validFrom)}`,
    record.validUntil === null ? null : `until ${formatMoment(record.validUntil)}`,
  ]
    .filter((part) => part !== null)
    .join(' ');
}

/** A `datetime-local` input's value (the browser's time zone) as ISO 8601 UTC; undefined when empty. */
export function momentFromInput(value: string): string | undefined {
  if (value.trim() === '') return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : date.toISOString();
}

/** ISO 8601 as a `datetime-local` input's value, in the browser's time zone. */
export function momentToInput(value: string | null): string {
  if (value === null) return '';
  const date = new Date(value);
  const seconds =
    date.getSeconds() === 0 && date.getMilliseconds() === 0
      ? ''
      : `:${String(date.getSeconds()).padStart(2, '0')}.${String(date.getMilliseconds()).padStart(3, '0')}`;
  return `${formatMoment(value).replace(' ', 'T')}${seconds}`;
}
