import type { Quote, QuoteInput } from '@pricebook/client/browser';
import { h, replaceChildren, table } from '../dom.js';
import { Form, numberOrText } from '../forms.js';
import { moneyIn } from '../money.js';
import { section, type ViewContext } from '../view.js';
import { sourceText } from './orders.js';

/** The lines a quote form's text names: one a line, the SKU then the quantity ("MUG-1 12"; a comma or tab works too). */
export function quoteLines(text: string): Array<{ sku: string; quantity: unknown }> {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .map((line) => {
      const match = /^(.*?)[\s,;]+(\S+)$/.exec(line);
      // A line without a quantity is sent as one unit of what it names.
      return match === null ? { sku: line, quantity: 1 } : { sku: match[1]!, quantity: numberOrText(match[2]!) };
    });
}

/**
 * "Price a cart": a quote for the customer (`POST /v1/quotes`, nothing stored), each line with
 * its price, where it came from and an "Explain" that opens it in the effective price.
 */
export function quoteSection(context: ViewContext, customerId: number, explain: (sku: string, quantity: number) => void): HTMLElement {
  const result = h('div', { class: 'quote-result' });
  const form = new Form({
    label: 'Price a cart',
    submitLabel: 'Price the cart',
    fields: [
      { name: 'lines', label: 'Lines', type: 'textarea', hint: 'One a line: the SKU, then the quantity (MUG-1 12). Up to 1000 lines; a SKU may come twice.' },
    ],
    onSubmit: async (form) => {
      let quote: Quote;
      try {
        // Sent as typed: the API judges each line (a 422 names it: lines[2].quantity).
        quote = await context.api.quotes.create({ customerId, lines: quoteLines(form.value('lines')) } as QuoteInput);
      } catch (error) {
        replaceChildren(result);
        return form.showError(error);
      }
      replaceChildren(
        result,
        table(
          'Priced lines',
          ['Line', 'SKU', 'Quantity', 'Unit price', 'Line total', 'Price from', ''],
          quote.lines.map((line, index) => [
            String(index + 1),
            line.sku,
            String(line.quantity),
            moneyIn(line.unitPrice, quote.currency),
            moneyIn(line.lineTotal, quote.currency),
            sourceText(line),
            h(
              'button',
              { type: 'button', 'aria-label': `Explain line ${index + 1} (${line.sku})`, onclick: () => explain(line.sku, line.quantity) },
              'Explain',
            ),
          ]),
        ),
        h(
          'p',
          { class: 'price-line' },
          'Total ',
          h('strong', { class: 'price' }, moneyIn(quote.total, quote.currency)),
          ` for ${quote.lines.length} line${quote.lines.length === 1 ? '' : 's'}`,
        ),
      );
      context.announce(`Cart priced: ${moneyIn(quote.total, quote.currency)}`);
    },
  });
  return section(
    'Price a cart (a quote)',
    h('p', { class: 'hint' }, 'What the customer would pay now for these lines, as an order would price them; nothing is stored.'),
    form.element,
    result,
  );
}
