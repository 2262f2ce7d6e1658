import type { Pricebook, StaffMember } from '@pricebook/client/browser';
import { h, replaceChildren, type Child } from './dom.js';
import { type ErrorReading, errorMessage } from './error-message.js';
import { isAbort } from './forms.js';
import type { OutcomeKind } from './toast.js';

/**
 * What a view gets: the API (the typed client, with the staff session's cookie), the main
 * region, and a signal aborted when the page moves on (the client's requests and waits end with it).
 */
export interface ViewContext {
  api: Pricebook;
  /** A client for signing in: its 401 (a wrong password) signs nobody out, and its 429 is thrown, not waited out, so the form can say how long to wait. */
  signInApi: Pricebook;
  /** The signed-in staff member; undefined on the sign-in form. */
  member: StaffMember | undefined;
  /** Whether the member's role changes prices: a viewer's page offers no change. */
  canChange: boolean;
  /**
   * Whether the page offers direct changes of what customers pay (prices, list entries, lists'
   * and groups' settings that price, assignments): `canChange`, on a store that does not require
   * approval. Where it does, the page offers them as change sets (`approvalNotice`).
   */
  canChangePrices: boolean;
  /** Whether the store requires approval of price changes (`GET /v1/store`). */
  approvalRequired: boolean;
  /** The sign-in (or the password change) succeeded: the page now shows `member` as signed in. */
  signedIn(member: StaffMember): void;
  main: HTMLElement;
  signal: AbortSignal;
  /** Adds the view's `h1`, names the document after it and moves the focus to it. */
  heading(text: string): HTMLHeadingElement;
  /**
   * Says the outcome of an action, to screen readers and on screen: a success closes by itself,
   * a `failure` stays until dismissed, either goes when the member moves to another view;
   * `quiet`: to screen readers only.
   */
  announce(message: string, kind?: OutcomeKind): void;
  navigate(hash: string): void;
  /** Forgets the member and shows the sign-in form with `message` (the session is already over). */
  signOut(message?: string): void;
  /** Why the page is here (for the sign-in: the session ended), if it should say so. */
  notice: string | undefined;
}

/** A view renders into `context.main`; the route's captures (record ids) follow. */
export type View = (context: ViewContext, ...parameters: string[]) => Promise<void>;

/** A box for failures of loads and buttons: an alert, empty until something fails. */
export interface AlertBox extends HTMLElement {
  show(error: unknown, reading?: ErrorReading): void;
  clear(): void;
}

export function alertBox(): AlertBox {
  const box = h('div', { class: 'alert', role: 'alert' });
  return Object.assign(box, {
    show(error: unknown, reading?: ErrorReading) {
      if (isAbort(error)) return;
      replaceChildren(box, h('p', {}, errorMessage(error, reading)));
    },
    clear() {
      replaceChildren(box);
    },
  });
}

/**
 * Where the store requires approval, in place of changes the page does not offer: why, what
 * `instead` says (where those changes are made), and a link to the change sets unless `link` is false.
 */
export function approvalNotice(instead: string, link = true): HTMLElement {
  const way = link ? [' ', h('a', { href: '#/change-sets' }, 'Go to Change sets'), '.'] : [];
  return h('p', { class: 'notice' }, `This store requires approval of price changes: ${instead}`, ...way);
}

/** A section with an `h2`, labelled by it. */
export function section(title: string, ...children: Child[]): HTMLElement {
  const id = `section-${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
  return h('section', { 'aria-labelledby': id }, h('h2', { id }, title), ...children);
}

/** A button that runs `action`, disabled while it runs; a failure goes to `alert`, read as `reading` says. */
export function actionButton(
  label: string,
  action: () => Promise<void>,
  alert: AlertBox,
  attributes: Record<string, string> = {},
  reading: ErrorReading = {},
): HTMLButtonElement {
  const button = h('button', { type: 'button', ...attributes }, label);
  button.addEventListener('click', () => {
    if (button.disabled) return;
    button.disabled = true;
    alert.clear();
    action()
      .catch((error: unknown) => alert.show(error, reading))
      .finally(() => {
        button.disabled = false;
      });
  });
  return button;
}

const loadsInto = new WeakMap<Element, number>();

/**
 * Marks the start of a load into `target` (a table's box, a summary). The answer tells, once the
 * load's data is in, whether it is still the last load started into that element: an earlier one
 * answered later (two quick saves, two page clicks) is dropped instead of shown over newer data.
 */
export function loadInto(target: Element): () => boolean {
  const mine = (loadsInto.get(target) ?? 0) + 1;
  loadsInto.set(target, mine);
  return () => loadsInto.get(target) === mine;
}

/** Previous / next buttons and "11–20 of 35" for a paged table; "no trade prices yet" for an empty one (its `label` in lower case). */
export function pager(options: { offset: number; count: number; total: number; shown: number; label: string; onPage: (offset: number) => void }): HTMLElement {
  const { offset, count, total, shown } = options;
  const range =
    total === 0 ? `no ${options.label.toLowerCase()} yet` : shown === 0 ? `none of ${total} on this page` : `${offset + 1}–${offset + shown} of ${total}`;
  const previous = h('button', { type: 'button', disabled: offset === 0 }, 'Previous page');
  const next = h('button', { type: 'button', disabled: offset + count >= total }, 'Next page');
  previous.addEventListener('click', () => options.onPage(Math.max(0, offset - count)));
  next.addEventListener('click', () => options.onPage(offset + count));
  return h('nav', { class: 'pager', 'aria-label': `${options.label} pages` }, previous, h('span', {}, range), next);
}
