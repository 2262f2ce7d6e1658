import type { ImportMode } from '@pricebook/client/browser';
import type { Import, ImportChange } from '../../contract/imports.js';
import type { PriceList } from '../../contract/price-lists.js';
import { priceListCsv } from '../../csv/price-list-csv.js';
import { tradePricesCsv } from '../../csv/trade-prices-csv.js';
import { collect } from '../collect.js';
import { readCsvUpload } from '../csv-upload.js';
import { findCustomer } from '../customer-lookup.js';
import { customerNames, nameIn } from './customer-names.js';
import { downloadText } from '../download-text.js';
import { formatMoment, h, replaceChildren, table, validityText } from '../dom.js';
import { Form } from '../forms.js';
import { money } from '../money.js';
import { alertBox, approvalNotice, loadInto, pager, section, type AlertBox, type View, type ViewContext } from '../view.js';

/** How often a running import is asked how far it is, and for how long at most (10 minutes). */
const POLL_MS = 300;
const MAX_POLLS = 2000;
/** Imports listed under "Recent imports". */
const RECENT = 10;
/** A dry run's changes shown a page at a time. */
const CHANGES_PAGE = 20;

const CHANGE_TEXT: Readonly<Record<ImportChange['kind'], string>> = { created: 'New', changed: 'Changed', deleted: 'Deleted' };

const MODE_OPTIONS = [
  { value: 'replace', label: 'Replace: each customer in the file gets exactly its rows' },
  { value: 'add', label: 'Add: every row becomes a new trade price' },
] as const;

/** What each mode does, said before the upload. */
const MODE_HINT =
  'Replace (the default) keeps one price per customer, SKU and break: a row equal to a price already there keeps it, the customer’s other prices go, so the same sheet uploaded again changes nothing. Add creates every row beside the prices already there: a sheet uploaded twice doubles them.';

/** An uploader as the recent imports name them. */
function uploaderText(run: Import): string {
  if (run.createdBy === null) return '—';
  return run.createdBy.type === 'staff' ? run.createdBy.name : `API key ${run.createdBy.name}`;
}

/**
 * CSV import (a dry run first, then the real one, with progress and the file's problems by row
 * and column), recent imports, and CSV downloads of a customer's or a price list's prices.
 */
export const importsView: View = async (context) => {
  context.heading('Import and export');
  const alert = alertBox();
  const recent = h('div', {});
  const loadRecent = async () => {
    const count = await context.api.imports.count();
    const imports = count === 0 ? [] : await context.api.imports.list({ offset: Math.max(0, count - RECENT), count: RECENT });
    replaceChildren(
      recent,
      imports.length === 0
        ? h('p', {}, 'No imports yet.')
        : table(
            'Recent imports, newest first',
            ['Import', 'File', 'By', 'Started', 'Mode', 'Status', 'Rows', 'Result'],
            imports
              .reverse()
              .map((run) => [
                `#${run.id}${run.dryRun ? ' (dry run)' : ''}`,
                run.fileName ?? '—',
                uploaderText(run),
                formatMoment(run.createdAt),
                run.mode,
                run.status,
                String(run.rows ?? ''),
                resultText(run),
              ]),
          ),
    );
  };
  context.main.append(
    alert,
    importSection(context, alert, () => loadRecent().catch((error: unknown) => alert.show(error))),
    section('Recent imports', recent),
    await exportSection(context, alert),
  );
  await loadRecent();
};

function importSection(context: ViewContext, alert: AlertBox, imported: () => Promise<void>): HTMLElement {
  const progress = h('div', { class: 'import-progress', 'aria-live': 'polite' });
  const changes = h('div', { class: 'import-changes' });
  /** The file and mode of the last dry run that succeeded: only those can be applied. */
  let checked: { file: File; mode: string } | undefined;
  const apply = h('button', { type: 'button', disabled: true }, 'Apply import');
  const run = async (file: File, bytes: Uint8Array, mode: string, dryRun: boolean): Promise<Import> => {
    replaceChildren(changes);
    replaceChildren(progress, h('p', {}, dryRun ? 'Checking the file…' : 'Importing…'));
    let state: Import;
    try {
      // The file's bytes as they are (a retry after a 429 sends them again); the mode is one of the select's.
      state = await context.api.imports.create(bytes, { mode: mode as ImportMode, dryRun, fileName: file.name.slice(0, 255) });
      for (let polls = 0; (state.status === 'queued' || state.status === 'running') && polls < MAX_POLLS; polls++) {
        showProgress(progress, state);
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
        state = await context.api.imports.get(state.id);
      }
    } catch (error) {
      // The check ended, refused: the form says why, and nothing is in progress.
      replaceChildren(progress);
      throw error;
    }
    showProgress(progress, state);
    await imported();
    return state;
  };
  const form = new Form({
    label: 'Import a CSV file',
    submitLabel: 'Check the file (dry run)',
    fields: [
      {
        name: 'file',
        label: 'CSV file',
        type: 'file',
        accept: '.csv,text/csv',
        hint: 'Long format (customer_id,sku,price,min_quantity,valid_from,valid_until) or a matrix (sku, then one column per customer); up to 50 MiB.',
      },
      { name: 'mode', label: 'Mode', type: 'select', options: MODE_OPTIONS, value: 'replace', hint: MODE_HINT },
    ],
    // Where the store requires approval, a dry run only: the file goes into a change set to be applied.
    actions: context.canChangePrices ? [apply] : [],
    onSubmit: async (form) => {
      checked = undefined;
      apply.disabled = true;
      const file = form.file('file');
      if (file === undefined) return form.showFieldError('file', 'choose a file first');
      const mode = form.value('mode');
      const upload = await readCsvUpload(file);
      if (upload.problem !== undefined) return form.showFieldError('file', upload.problem);
      const state = await run(file, upload.bytes, mode, true);
      if (state.status === 'succeeded') {
        checked = { file, mode };
        apply.disabled = false;
        await showChanges(context, alert, changes, state.id, 0);
        context.announce(
          context.canChangePrices
            ? 'Dry run succeeded: nothing changed yet. Apply the import to make the changes.'
            : 'Dry run succeeded: nothing changed. Upload the file into a change set to apply it.',
        );
      }
    },
  });
  const forget = () => {
    checked = undefined;
    apply.disabled = true;
    replaceChildren(changes);
  };
  form.control('file').addEventListener('change', forget);
  form.control('mode').addEventListener('change', forget);
  apply.addEventListener('click', () => {
    if (checked === undefined) return;
    const { file, mode } = checked;
    forget();
    file
      .arrayBuffer()
      .then((bytes) => run(file, new Uint8Array(bytes), mode, false))
      .then((state) => (state.status === 'succeeded' ? context.announce('Import applied') : context.announce('Import failed: nothing changed', 'failure')))
      .catch((error: unknown) => form.showError(error));
  });
  return section(
    'Import a CSV file',
    context.canChangePrices
      ? h(
          'p',
          {},
          'A dry run checks every row and counts what would change, changing nothing; then “Apply import” sends the same file for real. Any problem in the file and nothing changes.',
        )
      : h('p', {}, 'A dry run checks every row and counts what would change, changing nothing. Any problem in the file and nothing changes.'),
    context.canChange && !context.canChangePrices
      ? approvalNotice('a file is applied by uploading it into a change set (on the set’s page), which another staff member approves before it applies.')
      : null,
    form.element,
    progress,
    changes,
  );
}

/** A dry run's changes, a page at a time: each price created, changed (before → after) or deleted. */
async function showChanges(context: ViewContext, alert: AlertBox, target: HTMLElement, importId: number, offset: number): Promise<void> {
  const current = loadInto(target);
  const shown = await context.api.imports.changes(importId, { offset, count: CHANGES_PAGE });
  const price = (value: number | null) => (value === null ? 'none' : money(value));
  const { counts } = shown;
  const names = await customerNames(
    context.api,
    shown.rows.map((row) => row.customerId),
  );
  if (!current()) return;
  replaceChildren(
    target,
    h('h3', {}, 'What it would change'),
    shown.total === 0
      ? h('p', {}, 'Nothing would change: every row matches a price already there.')
      : table(
          `Prices the import would change: ${counts.created} new, ${counts.changed} changed, ${counts.deleted} deleted`,
          ['Change', 'Customer', 'SKU', 'From quantity', 'Valid', 'Before → after'],
          shown.rows.map((row) => [
            CHANGE_TEXT[row.kind],
            h('a', { href: `#/customers/${row.customerId}` }, nameIn(names, row.customerId)),
            row.sku,
            String(row.minQuantity),
            validityText(row),
            `${price(row.before)} → ${price(row.after)}`,
          ]),
        ),
    shown.total > CHANGES_PAGE
      ? pager({
          offset,
          count: CHANGES_PAGE,
          total: shown.total,
          shown: shown.rows.length,
          label: 'Changes',
          onPage: (next) => void showChanges(context, alert, target, importId, next).catch((error: unknown) => alert.show(error)),
        })
      : null,
    shown.complete
      ? null
      : h(
          'p',
          { class: 'notice' },
          `The file would change more prices than a dry run lists: the first ${shown.total} it found are shown; the dry run’s result above counts all of them.`,
        ),
  );
}

function showProgress(target: HTMLElement, state: Import): void {
  const rows = state.rows ?? 0;
  const result = state.result;
  const outcome =
    state.status === 'succeeded' && result !== null
      ? h(
          'p',
          { class: 'result' },
          state.dryRun
            ? `Dry run succeeded, nothing changed yet: the import would create ${result.created} prices, delete ${result.deleted} and leave ${result.unchanged} unchanged`
            : `Import succeeded: ${result.created} prices created, ${result.deleted} deleted, ${result.unchanged} unchanged`,
          ` (${rows} rows, ${state.format ?? 'unknown'} format).`,
        )
      : state.status === 'failed'
        ? h(
            'p',
            { class: 'result failed' },
            `${state.dryRun ? 'Dry run' : 'Import'} failed: ${plural(state.errorCount, 'problem')} in the file; nothing changed.`,
          )
        : null;
  replaceChildren(
    target,
    h(
      'p',
      {},
      h('label', { for: 'import-progress-bar' }, `Import #${state.id}: ${state.status}, ${state.processed} of ${state.rows ?? '?'} rows checked `),
      h('progress', { id: 'import-progress-bar', max: Math.max(rows, 1), value: state.status === 'succeeded' ? Math.max(rows, 1) : state.processed }),
    ),
    outcome,
    state.errors.length === 0
      ? null
      : table(
          'Problems in the file',
          ['Row', 'Column', 'Problem'],
          state.errors.map((problem) => [String(problem.row), problem.field ?? '', problem.message]),
        ),
    state.errorCount > state.errors.length ? h('p', {}, `The first ${state.errors.length} of ${state.errorCount} problems are shown.`) : null,
  );
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

function resultText(run: Import): string {
  if (run.status === 'failed') return plural(run.errorCount, 'problem');
  if (run.result === null) return '';
  return `${run.result.created} created, ${run.result.deleted} deleted, ${run.result.unchanged} unchanged`;
}

async function exportSection(context: ViewContext, alert: AlertBox): Promise<HTMLElement> {
  const customerForm = new Form({
    label: 'Download a customer’s prices',
    submitLabel: 'Download customer prices',
    fields: [{ name: 'customer', label: 'Customer', hint: 'Id or email. The file is in the long format: it imports back as it is.' }],
    onSubmit: async (form) => {
      const customer = await findCustomer(context.api, form.value('customer'));
      if (customer === undefined) return form.showFieldError('customer', 'no customer of this store has this id or email');
      const records = await collect(
        context.api.tradePrices.iterate({ customerId: customer.id, fields: 'customerId,sku,price,minQuantity,validFrom,validUntil' }),
      );
      downloadText(`customer-${customer.id}-prices.csv`, tradePricesCsv(records));
      context.announce(`${records.length} prices downloaded`);
    },
  });
  const lists = await collect(context.api.priceLists.iterate({ kind: 'fixed', fields: 'id,name' })).catch((error: unknown) => {
    alert.show(error);
    return [] as PriceList[];
  });
  const listForm = new Form({
    label: 'Download a price list’s entries',
    submitLabel: 'Download list entries',
    fields: [
      {
        name: 'list',
        label: 'Price list',
        type: 'select',
        options: lists.map((list) => ({ value: String(list.id), label: list.name })),
        hint: 'Fixed lists; columns sku,price,min_quantity,valid_from,valid_until and the entry’s quantity rule (quantity_minimum,quantity_maximum,quantity_increment).',
      },
    ],
    onSubmit: async (form) => {
      const id = form.value('list');
      if (id === '') return form.showFieldError('list', 'the store has no fixed price list');
      const entries = await collect(context.api.priceLists.prices.iterate(Number(id)));
      downloadText(`price-list-${id}-prices.csv`, priceListCsv(entries));
      context.announce(`${entries.length} entries downloaded`);
    },
  });
  return section('Export', customerForm.element, listForm.element);
}
