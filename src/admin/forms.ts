import { type FieldProblem, PricebookError } from '@pricebook/client/browser';
import { ERROR_CODES } from '../contract/error-codes.js';
import { h, replaceChildren, uniqueId } from './dom.js';
import { errorMessage } from './error-message.js';

export interface FieldSpec {
  /** The API's name of the field, so its 422 problems land here. */
  name: string;
  label: string;
  type?: 'text' | 'password' | 'search' | 'email' | 'url' | 'number' | 'datetime-local' | 'file' | 'select' | 'textarea';
  /** For `select`. */
  options?: readonly { value: string; label: string }[];
  value?: string;
  hint?: string;
  inputmode?: 'decimal' | 'numeric' | 'email' | 'url';
  autocomplete?: string;
  accept?: string;
  readonly?: boolean;
}

export interface FormOptions {
  /** The form's accessible name. */
  label: string;
  submitLabel: string;
  fields: readonly FieldSpec[];
  /** Other names the API may give a field of this form (`productId` is asked as `sku`). */
  aliases?: Readonly<Record<string, string>>;
  onSubmit: (form: Form) => Promise<void>;
  /** Extra buttons after the submit button. */
  actions?: readonly HTMLElement[];
  /** Fields side by side where there is room (short fields). */
  grid?: boolean;
}

type Control = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

const QUERY_PARAMETER = /^Invalid query parameter '([^']+)'/;

interface Field {
  spec: FieldSpec;
  control: Control;
  hintId: string | undefined;
  error: HTMLElement;
}

/**
 * A form whose controls are labelled and whose errors appear next to the field the API named
 * (`aria-invalid`, described by the message, the first one focused). Problems naming no field
 * of the form, and other failures, appear above the buttons as an alert.
 */
export class Form {
  readonly element: HTMLFormElement;
  readonly submitButton: HTMLButtonElement;
  private readonly fields = new Map<string, Field>();
  private readonly summary: HTMLElement;

  constructor(private readonly options: FormOptions) {
    this.submitButton = h('button', { type: 'submit' }, options.submitLabel);
    this.summary = h('div', { class: 'form-errors', role: 'alert' });
    this.element = h('form', { 'aria-label': options.label, novalidate: true, class: options.grid === true ? 'grid-form' : undefined });
    for (const spec of options.fields) this.element.append(this.renderField(spec));
    this.element.append(this.summary, h('div', { class: 'actions' }, this.submitButton, ...(options.actions ?? [])));
    this.element.addEventListener('submit', (event) => {
      event.preventDefault();
      void this.submit();
    });
  }

  value(name: string): string {
    return this.field(name).control.value.trim();
  }

  setValue(name: string, value: string): void {
    this.field(name).control.value = value;
  }

  control(name: string): Control {
    return this.field(name).control;
  }

  /** The file chosen in a `file` field. */
  file(name: string): File | undefined {
    const control = this.field(name).control;
    return control instanceof HTMLInputElement ? (control.files?.[0] ?? undefined) : undefined;
  }

  setReadOnly(name: string, readOnly: boolean): void {
    const control = this.field(name).control;
    if (control instanceof HTMLInputElement) control.readOnly = readOnly;
  }

  clearErrors(): void {
    replaceChildren(this.summary);
    for (const field of this.fields.values()) {
      field.control.removeAttribute('aria-invalid');
      setDescribedBy(field.control, field.hintId, undefined);
      field.error.hidden = true;
      replaceChildren(field.error);
    }
  }

  /**
   * Shows a failure: a 422's problems next to their fields (only those of item `index` of a
   * bulk body, when given), anything else as the form's alert. Focuses the first field named.
   */
  showError(error: unknown, index?: number): void {
    this.clearErrors();
    const general: string[] = [];
    let first: Control | undefined;
    if (error instanceof PricebookError && error.errors !== undefined && error.errors.length > 0) {
      for (const problem of error.errors) {
        const field = this.fieldOf(problem, index);
        if (field === undefined) {
          general.push(describeProblem(problem));
          continue;
        }
        this.markInvalid(field, priceMessage(problem.field, problem.message));
        first ??= field.control;
      }
      if (general.length > 0 && first === undefined) general.unshift(error.message);
    } else if (error instanceof PricebookError && error.code === ERROR_CODES.invalid_query && this.fields.has(QUERY_PARAMETER.exec(error.message)?.[1] ?? '')) {
      // A 400 on a query parameter names it in its message: `Invalid query parameter 'quantity': …`.
      const field = this.field(QUERY_PARAMETER.exec(error.message)?.[1] ?? '');
      this.markInvalid(field, error.message.replace(QUERY_PARAMETER, '').replace(/^:\s*/, ''));
      first = field.control;
    } else {
      general.push(errorMessage(error));
    }
    if (general.length > 0) {
      replaceChildren(
        this.summary,
        h('p', {}, general[0] ?? ''),
        general.length > 1 ? h('ul', {}, ...general.slice(1).map((line) => h('li', {}, line))) : null,
      );
    }
    first?.focus();
  }

  /** A problem found before asking the API (no product has the SKU): shown as the API's are. */
  showFieldError(name: string, message: string): void {
    this.clearErrors();
    const field = this.field(name);
    this.markInvalid(field, message);
    field.control.focus();
  }

  async submit(): Promise<void> {
    if (this.submitButton.disabled) return;
    this.clearErrors();
    this.submitButton.disabled = true;
    this.element.setAttribute('aria-busy', 'true');
    try {
      await this.options.onSubmit(this);
    } catch (error) {
      if (!isAbort(error)) this.showError(error);
    } finally {
      this.submitButton.disabled = false;
      this.element.removeAttribute('aria-busy');
    }
  }

  private markInvalid(field: Field, message: string): void {
    field.control.setAttribute('aria-invalid', 'true');
    setDescribedBy(field.control, field.hintId, field.error.id);
    field.error.hidden = false;
    replaceChildren(field.error, `${field.spec.label}: ${message}`);
  }

  private fieldOf(problem: FieldProblem, index: number | undefined): Field | undefined {
    if (problem.field === null) return undefined;
    if (index !== undefined && problem.index !== undefined && problem.index !== index) return undefined;
    // `prices[3].validUntil` → `validUntil`; `priceListIds[0]` → `priceListIds`.
    const name =
      problem.field
        .replace(/\[\d+\]/g, '')
        .split('.')
        .at(-1) ?? problem.field;
    return this.fields.get(name) ?? this.fields.get(this.options.aliases?.[name] ?? '');
  }

  private field(name: string): Field {
    const field = this.fields.get(name);
    if (field === undefined) throw new Error(`no field ${name}`);
    return field;
  }

  private renderField(spec: FieldSpec): HTMLElement {
    const id = uniqueId(spec.name);
    const hintId = spec.hint === undefined ? undefined : `${id}-hint`;
    const control: Control =
      spec.type === 'select'
        ? h(
            'select',
            { id, name: spec.name },
            ...(spec.options ?? []).map((option) => h('option', { value: option.value, selected: option.value === spec.value }, option.label)),
          )
        : spec.type === 'textarea'
          ? h('textarea', { id, name: spec.name, rows: 6, spellcheck: 'false', autocomplete: 'off' }, spec.value ?? '')
          : h('input', {
              id,
              name: spec.name,
              type: spec.type ?? 'text',
              value: spec.value,
              inputmode: spec.inputmode,
              autocomplete: spec.autocomplete ?? 'off',
              accept: spec.accept,
              readonly: spec.readonly,
            });
    if (hintId !== undefined) control.setAttribute('aria-describedby', hintId);
    const error = h('p', { class: 'field-error', id: `${id}-error`, hidden: true });
    this.fields.set(spec.name, { spec, control, hintId, error });
    return h(
      'div',
      { class: 'field' },
      h('label', { for: id }, spec.label),
      hintId === undefined ? null : h('p', { class: 'hint', id: hintId }, spec.hint ?? ''),
      control,
      error,
    );
  }
}

function setDescribedBy(control: Control, hintId: string | undefined, errorId: string | undefined): void {
  const ids = [errorId, hintId].filter((id) => id !== undefined);
  if (ids.length === 0) control.removeAttribute('aria-describedby');
  else control.setAttribute('aria-describedby', ids.join(' '));
}

function describeProblem(problem: FieldProblem): string {
  const where = [problem.index === undefined ? undefined : `item ${problem.index + 1}`, problem.field ?? undefined]
    .filter((part) => part !== undefined)
    .join(', ');
  return where === '' ? problem.message : `${where}: ${problem.message}`;
}

export function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

/**
 * A number for the API when the text is one, else the text itself: the API, not the page,
 * decides what is valid, and names the field when it is not. Empty: undefined (left out).
 */
export function numberOrText(text: string): number | string | undefined {
  if (text === '') return undefined;
  const value = Number(text);
  return /^-?\d+(\.\d+)?$/.test(text) && Number.isFinite(value) ? value : text;
}

/**
 * A price field's value for the API: `numberOrText`, with a decimal comma read as the point when
 * the text has one comma and no point (19,50 is 19.50); anything else is sent as typed.
 */
export function priceOrText(text: string): number | string | undefined {
  const trimmed = text.trim();
  // `1,234` reads as a thousand and more in the page's locale (en-GB): a comma followed by
  // exactly three digits is not taken for a decimal comma, and is refused as typed.
  const decimalComma = /^-?\d+,\d+$/.test(trimmed) && !/^-?\d{1,3},\d{3}$/.test(trimmed);
  return numberOrText(decimalComma ? trimmed.replace(',', '.') : trimmed);
}

/** What a price looks like, said where a price field's text is not one. */
export const PRICE_FORMAT = 'a price: digits with at most 4 decimals after a point or a comma, no thousands separator, e.g. 19.50 or 19,50';

/** The API's "must be number" at a price field (`price`, `prices.3.price`, `rounding.increment`) in the page's words: the format. */
export function priceMessage(field: string | null | undefined, message: string): string {
  return /(^|\.)(price|increment)$/.test(field ?? '') && message === 'must be number' ? PRICE_FORMAT : message;
}
