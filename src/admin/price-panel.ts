import { formPanel, type FormPanel } from './dialog.js';
import { h, replaceChildren } from './dom.js';
import type { FieldSpec, Form } from './forms.js';

/** A price form's panel, in one of its two modes. */
export interface PricePanel<Edited> {
  panel: FormPanel;
  /** The record being edited; undefined while the panel adds. */
  readonly editing: Edited | undefined;
  /** Opens the panel to add, the focus in the SKU. */
  add(): void;
  /** Opens the panel filled with `values` (by field name) to edit `record`, the SKU read only, the focus in the price. */
  edit(record: Edited, texts: { title: string; note: string }, values: Readonly<Record<string, string>>): void;
}

/**
 * A form of a price (a customer's trade price, a list's entry) in a panel beside its table,
 * that adds one, or edits one as a replace of its SKU (the SKU kept: delete and add to move
 * it). Closed (Close, Escape, or once saved), it goes back to adding, its fields as they were.
 */
export function pricePanel<Edited>(form: Form, fields: readonly FieldSpec[], adding: { title: string; submitLabel: string }): PricePanel<Edited> {
  let editing: Edited | undefined;
  const note = h('p', { class: 'notice', hidden: true });
  const reset = () => {
    if (editing !== undefined) for (const field of fields) form.setValue(field.name, field.value ?? '');
    editing = undefined;
    panel.heading.textContent = adding.title;
    form.submitButton.textContent = adding.submitLabel;
    form.setReadOnly('sku', false);
    note.hidden = true;
    form.clearErrors();
  };
  const panel = formPanel(adding.title, [note, form.element], reset);
  return {
    panel,
    get editing() {
      return editing;
    },
    add() {
      reset();
      panel.open(form.control('sku'));
    },
    edit(record, texts, values) {
      reset();
      editing = record;
      panel.heading.textContent = texts.title;
      replaceChildren(note, texts.note);
      note.hidden = false;
      form.submitButton.textContent = 'Save (replace)';
      for (const [name, value] of Object.entries(values)) form.setValue(name, value);
      form.setReadOnly('sku', true);
      panel.open(form.control('price'));
    },
  };
}
