import type { ChangeSet, ChangeSetOperation, ChangeSetPreviewRow } from '@pricebook/client/browser';
import { formatMoment, h, momentFromInput, replaceChildren, table } from '../dom.js';
import { Form } from '../forms.js';
import { money } from '../money.js';
import { actionButton, alertBox, loadInto, pager, section, type View } from '../view.js';
import { changeSetForms } from './change-set-forms.js';
import { OPEN_STATES, offeredSteps } from './change-set-steps.js';
import { customerNames, nameIn } from './customer-names.js';

/** Rows of the preview and operations tables per page. */
const PAGE = 20;

const STATE_TEXT: Readonly<Record<ChangeSet['state'], string>> = {
  draft: 'Draft',
  submitted: 'Submitted for approval',
  approved: 'Approved',
  scheduled: 'Scheduled',
  applied: 'Applied',
  failed: 'Failed (nothing changed)',
  rolled_back: 'Rolled back',
  discarded: 'Discarded',
};

/** The store's change sets, newest first, and a form that starts one. */
export const changeSetsView: View = async (context) => {
  context.heading('Change sets');
  const alert = alertBox();
  const list = h('div', {}, h('p', {}, 'Loading change sets…'));
  const form = new Form({
    label: 'Start a change set',
    submitLabel: 'Start change set',
    fields: [
      { name: 'name', label: 'Name', hint: 'What the change is: “Northwind 2027 contract”.' },
      { name: 'note', label: 'Note', hint: 'Optional: why, where it comes from.' },
    ],
    onSubmit: async (form) => {
      const note = form.value('note');
      const created = await context.api.changeSets.create({ name: form.value('name'), ...(note !== '' && { note }) });
      context.announce(`Change set ${created.name} started`);
      context.navigate(`#/change-sets/${created.id}`);
    },
  });
  context.main.append(
    h(
      'p',
      {},
      'A change set gathers price changes that go live together: nobody pays them until it is applied, now or at a moment you choose. Its preview shows what each customer would pay before and after.',
    ),
    alert,
    ...(context.canChange ? [section('Start a change set', form.element)] : []),
    section('All change sets', list),
  );
  try {
    // The newest 100: the list is by id, so its last page, turned round.
    const count = await context.api.changeSets.count();
    const sets = count === 0 ? [] : (await context.api.changeSets.list({ offset: Math.max(0, count - 100), count: 100 })).reverse();
    replaceChildren(
      list,
      sets.length === 0
        ? h('p', {}, 'No change sets yet.')
        : table(
            'Change sets, newest first',
            ['Name', 'State', 'Operations', 'Started by', 'Last change'],
            sets.map((set) => [
              h('a', { href: `#/change-sets/${set.id}` }, set.name),
              stateText(set),
              String(set.counts.operations),
              set.createdBy.name,
              formatMoment(set.updatedAt),
            ]),
          ),
    );
  } catch (error) {
    replaceChildren(list);
    alert.show(error);
  }
};

/** One change set: its state and steps, its operations, the forms that add to it, and its preview before → after. */
export const changeSetView: View = async (context, id) => {
  const setId = Number(id);
  let set = await context.api.changeSets.get(setId);
  const heading = context.heading(`Change set: ${set.name}`);
  const alert = alertBox();
  const summary = h('div', {});
  const steps = h('div', { class: 'actions' });
  const waiting = h('div', {});
  const schedule = h('div', {});
  // Made once the set takes operations, and kept: what is typed in them survives each step.
  let setForms: HTMLElement[] | undefined;
  const forms = h('div', {});
  const operations = h('div', {});
  const preview = h('div', {});
  let operationsOffset = 0;
  let previewOffset = 0;

  const reload = async (message?: string) => {
    const current = loadInto(summary);
    const fresh = await context.api.changeSets.get(setId);
    if (!current()) return;
    set = fresh;
    heading.textContent = `Change set: ${set.name}`;
    showSummary();
    await Promise.all([loadOperations(), loadPreview()]);
    if (message !== undefined) context.announce(message);
  };

  const showSummary = () => {
    const who = (actor: ChangeSet['createdBy'] | null) => (actor === null ? '' : `${actor.name} (${actor.type === 'staff' ? 'staff' : 'API key'})`);
    replaceChildren(
      summary,
      h(
        'dl',
        { class: 'record' },
        h('dt', {}, 'State'),
        h('dd', { class: 'change-set-state' }, stateText(set)),
        h('dt', {}, 'Operations'),
        h('dd', {}, String(set.counts.operations)),
        ...(set.note === null ? [] : [h('dt', {}, 'Note'), h('dd', {}, set.note)]),
        h('dt', {}, 'Started by'),
        h('dd', {}, who(set.createdBy)),
        ...(set.submittedBy === null ? [] : [h('dt', {}, 'Submitted by'), h('dd', {}, who(set.submittedBy))]),
        ...(set.approvedBy === null ? [] : [h('dt', {}, 'Approved by'), h('dd', {}, who(set.approvedBy))]),
        ...(set.appliedAt === null
          ? []
          : [
              h('dt', {}, 'Applied'),
              h(
                'dd',
                {},
                `${formatMoment(set.appliedAt)} by ${who(set.appliedBy)}: ${set.counts.created} created, ${set.counts.deleted} deleted, ${set.counts.updated} updated`,
              ),
            ]),
        ...(set.revertOf === null
          ? []
          : [h('dt', {}, 'Takes back'), h('dd', {}, h('a', { href: `#/change-sets/${set.revertOf}` }, `change set #${set.revertOf}`))]),
        ...(set.revertedBy === null
          ? []
          : [h('dt', {}, 'Taken back by'), h('dd', {}, h('a', { href: `#/change-sets/${set.revertedBy}` }, `change set #${set.revertedBy}`))]),
      ),
      set.problems.length === 0
        ? null
        : table(
            'Why the last apply failed',
            ['Operation', 'Field', 'Problem'],
            set.problems.map((problem) => [String((problem.index ?? 0) + 1), problem.field ?? '', problem.message]),
          ),
    );
    const offered = offeredSteps(set, context.member, context.approvalRequired);
    const buttons: HTMLElement[] = [];
    if (offered.submit)
      buttons.push(actionButton('Submit for approval', async () => step(() => context.api.changeSets.submit(setId), 'Submitted for approval'), alert));
    // The server says who may approve this set (never its own writers where approval is required): its refusal names the rule.
    if (offered.approve)
      buttons.push(actionButton('Approve', async () => step(() => context.api.changeSets.approve(setId), 'Approved'), alert, {}, { roleAllows: true }));
    if (offered.apply) buttons.push(actionButton('Apply now', async () => step(() => context.api.changeSets.apply(setId), 'Applied'), alert));
    if (offered.discard) buttons.push(actionButton('Discard', async () => step(() => context.api.changeSets.discard(setId), 'Discarded'), alert));
    if (offered.revert) {
      buttons.push(
        actionButton(
          'Make a revert',
          async () => {
            const revert = await context.api.changeSets.revert(setId);
            context.announce(`Change set #${revert.id} takes this one back: preview it, then apply it`);
            context.navigate(`#/change-sets/${revert.id}`);
          },
          alert,
        ),
      );
    }
    replaceChildren(steps, ...buttons);
    replaceChildren(
      waiting,
      offered.awaitsApproval
        ? h(
            'p',
            { class: 'notice' },
            'This store requires approval: the set applies once another staff member has approved it, so it cannot be applied or scheduled yet.',
          )
        : null,
    );
    replaceChildren(schedule, offered.apply ? scheduleForm.element : null);
    // The forms go with the state: an applied or discarded set takes no more operations.
    replaceChildren(forms, ...(offered.edit ? (setForms ??= changeSetForms(context, setId, reload)) : []));
  };

  const step = async (run: () => Promise<ChangeSet>, message: string) => {
    try {
      set = await run();
    } finally {
      // A refused apply changed the set too (failed, with its problems).
      await reload();
    }
    context.announce(message);
  };

  const scheduleForm = new Form({
    label: 'Schedule the change set',
    submitLabel: 'Schedule',
    fields: [{ name: 'at', label: 'Apply at', type: 'datetime-local', hint: 'Your local time; applied within seconds after it.' }],
    onSubmit: async (form) => {
      const at = momentFromInput(form.value('at'));
      if (at === undefined) return form.showFieldError('at', 'choose a moment first');
      await context.api.changeSets.apply(setId, at);
      await reload(`Scheduled for ${formatMoment(at)}`);
    },
  });

  const loadOperations = async () => {
    const current = loadInto(operations);
    const listed = await context.api.changeSets.operations(setId, { offset: operationsOffset, count: PAGE });
    const names = await customerNames(
      context.api,
      listed.map((item) => (item.operation as { customerId?: number }).customerId),
    );
    if (!current()) return;
    replaceChildren(
      operations,
      listed.length === 0
        ? h('p', {}, 'No operations yet.')
        : table(
            'Operations, in the order they apply',
            ['#', 'Operation'],
            listed.map((item) => [String(item.index + 1), operationText(item.operation as ChangeSetOperation, names)]),
          ),
      set.counts.operations > PAGE
        ? pager({
            offset: operationsOffset,
            count: PAGE,
            total: set.counts.operations,
            shown: listed.length,
            label: 'Operations',
            onPage: (offset) => void turn(() => (operationsOffset = offset), loadOperations),
          })
        : null,
    );
  };

  const loadPreview = async () => {
    const current = loadInto(preview);
    if (!OPEN_STATES.has(set.state)) {
      replaceChildren(preview, h('p', {}, 'This change set is no longer open: what it changed is in each customer’s price history.'));
      return;
    }
    const shown = await context.api.changeSets.preview(setId, { offset: previewOffset, count: PAGE });
    const { counts } = shown;
    const names = await customerNames(
      context.api,
      shown.rows.map((row) => row.customerId),
    );
    if (!current()) return;
    replaceChildren(
      preview,
      h(
        'p',
        { class: 'preview-counts' },
        `Applied ${set.applyAt === null ? 'now' : `at ${formatMoment(set.applyAt)}`}, it would create ${counts.created} and delete ${counts.deleted} records, update ${counts.updated}, and change ${counts.changedPrices} of ${counts.prices} prices customers pay.`,
      ),
      shown.problems.length === 0
        ? null
        : table(
            'What would stop it now',
            ['Operation', 'Field', 'Problem'],
            shown.problems.map((problem) => [String((problem.index ?? 0) + 1), problem.field ?? '', problem.message]),
          ),
      shown.rows.length === 0
        ? h('p', {}, 'Nothing would change.')
        : table(
            'Preview, before → after',
            ['Change', 'Customer', 'SKU', 'From quantity', 'Before → after'],
            shown.rows.map((row) => previewCells(row, names)),
          ),
      shown.total > PAGE
        ? pager({
            offset: previewOffset,
            count: PAGE,
            total: shown.total,
            shown: shown.rows.length,
            label: 'Preview',
            onPage: (offset) => void turn(() => (previewOffset = offset), loadPreview),
          })
        : null,
      shown.pricesComplete ? null : h('p', { class: 'notice' }, 'The set touches more customers and SKUs than a preview prices: only the first are shown.'),
    );
  };

  const turn = async (move: () => void, load: () => Promise<void>) => {
    move();
    await load().catch((error: unknown) => alert.show(error));
  };

  context.main.append(
    alert,
    section('Summary', summary, steps, waiting, schedule),
    forms,
    section('Preview', preview),
    section('Operations', operations),
    h('p', {}, h('a', { href: '#/change-sets' }, 'All change sets')),
  );
  showSummary();
  await Promise.all([loadOperations(), loadPreview()]).catch((error: unknown) => alert.show(error));
};

function stateText(set: ChangeSet): string {
  const text = STATE_TEXT[set.state];
  return set.state === 'scheduled' && set.applyAt !== null ? `${text} for ${formatMoment(set.applyAt)}` : text;
}

/** An operation in words. */
function operationText(operation: ChangeSetOperation, names: ReadonlyMap<number, string>): string {
  switch (operation.type) {
    case 'trade_price.create':
      return `Add a price for ${nameIn(names, operation.customerId)}: ${operation.sku} at ${money(operation.price as number)}${(operation.minQuantity ?? 1) > 1 ? ` from ${operation.minQuantity}` : ''}`;
    case 'trade_price.delete':
      return `Delete trade price #${operation.id}`;
    case 'trade_price.restore':
      return `Restore trade price #${operation.id}`;
    case 'trade_prices.replace':
      return `Replace the prices of ${nameIn(names, operation.customerId)}${operation.scope === 'skus' ? ' (of the SKUs named)' : ''} with ${operation.prices.length}`;
    case 'price_list_entry.create':
      return `Add an entry to price list ${operation.priceListId}: ${operation.sku} at ${money(operation.price as number)}`;
    case 'price_list_entry.delete':
      return `Delete entry #${operation.id} of price list ${operation.priceListId}`;
    case 'price_list_entry.restore':
      return `Restore entry #${operation.id} of price list ${operation.priceListId}`;
    case 'customer.set_price_lists':
      return `Give ${nameIn(names, operation.customerId)} the price lists ${operation.priceListIds.length === 0 ? '(none)' : operation.priceListIds.join(', ')}`;
    case 'price_list.set_percentage':
      return `Set price list ${operation.priceListId} to ${operation.percentage} % off`;
  }
}

/** A preview row as table cells: what changes, for whom, and the price before → after. */
function previewCells(row: ChangeSetPreviewRow, names: ReadonlyMap<number, string>): string[] {
  const who = row.customerId === null || row.customerId === undefined ? '' : nameIn(names, row.customerId);
  const record = (row.record ?? {}) as Record<string, unknown>;
  const price = (value: number | null) => (value === null ? 'none' : money(value));
  if (row.kind === 'price') return ['Price', who, row.sku ?? '', String(row.minQuantity ?? ''), `${price(row.before)} → ${price(row.after)}`];
  const what = row.resource === 'trade_price' ? 'trade price' : row.resource === 'price_list_entry' ? 'list entry' : (row.resource ?? '').replace('_', ' ');
  const id = record.id === null || record.id === undefined ? '' : ` #${String(record.id as number)}`;
  const verb = row.kind === 'created' ? 'New' : row.kind === 'deleted' ? 'Deleted' : 'Changed';
  const value = row.kind === 'updated' ? JSON.stringify(record.priceListIds ?? record.percentage) : money(record.price as number);
  return [
    `${verb} ${what}${id}`,
    who,
    row.sku ?? '',
    row.kind === 'updated' ? '' : String(record.minQuantity as number),
    row.kind === 'deleted' ? `${value} → none` : row.kind === 'created' ? `none → ${value}` : value,
  ];
}
