import { PricebookError } from '@pricebook/client/browser';
import { h, replaceChildren } from './dom.js';
import { errorMessage } from './error-message.js';
import { priceMessage, priceOrText } from './forms.js';
import { money } from './money.js';

/** The message of a failed save for the item at `index` of a replace: its own problem, else the error's. */
export function problemOf(error: unknown, index: number): string {
  if (!(error instanceof PricebookError)) return errorMessage(error);
  const problem = error.errors?.find((found) => found.index === undefined || found.index === index);
  return problem === undefined ? error.message : priceMessage(problem.field, problem.message);
}

/**
 * A price that is edited where it is shown: the price as a button ("Change the price of
 * #12 (MUG-1), now £4.20"); a click turns it into a field with Save and Cancel (Enter saves,
 * Escape cancels). `save` gets the typed price (a number when it is one; the API judges it)
 * and answers a problem to show in the cell, or nothing once saved.
 */
export function inlinePriceCell(options: { name: string; price: number; save: (price: unknown) => Promise<string | undefined> }): HTMLElement {
  const cell = h('div', { class: 'inline-price' });
  const show = () => {
    replaceChildren(
      cell,
      h(
        'button',
        { type: 'button', class: 'link-like', 'aria-label': `Change the price of ${options.name}, now ${money(options.price)}`, onclick: edit },
        money(options.price),
      ),
    );
  };
  const edit = () => {
    const input = h('input', { type: 'text', inputmode: 'decimal', value: String(options.price), 'aria-label': `New price of ${options.name}`, size: 8 });
    const problem = h('p', { class: 'field-error', role: 'alert' });
    const save = async () => {
      const refused = await options.save(priceOrText(input.value)).catch((error: unknown) => errorMessage(error));
      if (refused === undefined) return;
      replaceChildren(problem, refused);
      input.setAttribute('aria-invalid', 'true');
      input.focus();
    };
    const cancel = h('button', { type: 'button', onclick: () => (show(), cell.querySelector('button')?.focus()) }, 'Cancel');
    input.addEventListener('keydown', (event) => {
      if (event.key === 'Enter') void save();
      if (event.key === 'Escape') cancel.click();
    });
    replaceChildren(cell, input, h('button', { type: 'button', onclick: () => void save() }, 'Save'), cancel, problem);
    input.focus();
    input.select();
  };
  show();
  return cell;
}
