import type { ReplacePriceListPricesResult } from '@pricebook/client/browser';
import { readCsvUpload } from '../csv-upload.js';
import { h, replaceChildren } from '../dom.js';
import { Form } from '../forms.js';
import { section, type ViewContext } from '../view.js';

const SCOPE_OPTIONS = [
  { value: 'skus', label: 'Only the SKUs in the file' },
  { value: 'list', label: 'The whole list' },
];

/** What a list import did, or would do, in words. */
function outcome(result: ReplacePriceListPricesResult, dryRun: boolean): string {
  const counts = `${result.created.length} entries created, ${result.deleted.length} deleted, ${result.unchanged} left as they are`;
  const overlaps =
    result.overlaps.length === 0
      ? ''
      : `; ${result.overlaps.length} overlap${result.overlaps.length === 1 ? '' : 's'} (same SKU and break, windows that meet: the newest entry wins)`;
  return dryRun
    ? `Checked, nothing changed yet: ${counts.replace(/created|deleted|left/g, (verb) => `would be ${verb}`)}${overlaps}.`
    : `Imported: ${counts}${overlaps}.`;
}

/**
 * "Import entries": a CSV file as the list's download writes it (`sku,price,min_quantity,…`),
 * checked first (a dry run: what it would create and delete, and every problem by row and
 * column), then applied as the same file and scope. `POST …/prices/import`.
 */
export function listImportSection(context: ViewContext, listId: number, imported: () => Promise<void>): HTMLElement {
  const result = h('div', { class: 'import-result', role: 'status' });
  /** The file and scope of the last dry run that succeeded: only that can be applied. */
  let checked: { file: File; scope: string } | undefined;
  const apply = h('button', { type: 'button', disabled: true }, 'Apply the import');
  const form = new Form({
    label: 'Import entries',
    submitLabel: 'Check the file (dry run)',
    fields: [
      {
        name: 'file',
        label: 'CSV file',
        type: 'file',
        accept: '.csv,text/csv',
        hint: 'As the download writes it: sku, price, min_quantity, valid_from, valid_until and the quantity_ columns; up to 5000 rows, 2 MiB.',
      },
      {
        name: 'scope',
        label: 'Replaces',
        type: 'select',
        options: SCOPE_OPTIONS,
        value: 'skus',
        hint: 'Only the SKUs in the file: their entries become the file’s, the list’s other SKUs stay. The whole list: every entry not in the file goes.',
      },
    ],
    actions: [apply],
    onSubmit: async (form) => {
      checked = undefined;
      apply.disabled = true;
      const file = form.file('file');
      if (file === undefined) return form.showFieldError('file', 'choose a CSV file');
      const scope = form.value('scope');
      const upload = await readCsvUpload(file);
      if (upload.problem !== undefined) return form.showFieldError('file', upload.problem);
      let answer: ReplacePriceListPricesResult;
      try {
        answer = await context.api.priceLists.prices.import(listId, upload.bytes, {
          scope: scope as 'skus' | 'list',
          dryRun: true,
        });
      } catch (error) {
        replaceChildren(result);
        return form.showError(error);
      }
      replaceChildren(result, h('p', {}, outcome(answer, true)));
      checked = { file, scope };
      apply.disabled = false;
    },
  });
  apply.addEventListener('click', () => {
    if (checked === undefined || apply.disabled) return;
    const { file, scope } = checked;
    apply.disabled = true;
    form.clearErrors();
    void (async () => {
      try {
        const answer = await context.api.priceLists.prices.import(listId, new Uint8Array(await file.arrayBuffer()), { scope: scope as 'skus' | 'list' });
        checked = undefined;
        replaceChildren(result, h('p', {}, outcome(answer, false)));
        context.announce(outcome(answer, false));
        await imported();
      } catch (error) {
        apply.disabled = false;
        form.showError(error);
      }
    })();
  });
  return section('Import entries', form.element, result);
}
