import { h, uniqueId } from './dom.js';

/**
 * Asks before a deletion, in the page's own modal dialog (not the browser's `confirm`): a
 * title that names the action, what will go, and two buttons. The focus starts on "Cancel",
 * Escape cancels, and the focus goes back to the button that asked. True when confirmed.
 */
export function confirmAction(options: { title: string; details: readonly string[]; confirmLabel: string }): Promise<boolean> {
  const titleId = uniqueId('dialog-title');
  const confirm = h('button', { type: 'button', class: 'danger' }, options.confirmLabel);
  const cancel = h('button', { type: 'button', class: 'secondary' }, 'Cancel');
  const dialog = h(
    'dialog',
    { class: 'confirm', 'aria-labelledby': titleId },
    h('h2', { id: titleId }, options.title),
    ...options.details.map((line) => h('p', {}, line)),
    h('div', { class: 'actions' }, confirm, cancel),
  );
  const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  document.body.append(dialog);
  return new Promise((resolve) => {
    const close = (answer: boolean) => {
      dialog.close();
      dialog.remove();
      resolve(answer);
      // After the asking button is enabled again (an action button is disabled while it runs).
      setTimeout(() => {
        if (opener?.isConnected === true) opener.focus();
      });
    };
    confirm.addEventListener('click', () => close(true));
    cancel.addEventListener('click', () => close(false));
    dialog.addEventListener('cancel', (event) => {
      event.preventDefault();
      close(false);
    });
    dialog.showModal();
    cancel.focus();
  });
}

/** A form's panel, and the button that opens it. */
export interface FormPanel {
  /** The panel, to be put in the view (it shows only while open). */
  element: HTMLDialogElement;
  /** The button that opens it, with the panel's title as its text. */
  opener: HTMLButtonElement;
  /** The panel's heading (an edit renames it). */
  heading: HTMLHeadingElement;
  open(focus?: HTMLElement): void;
  close(): void;
}

/**
 * A form in a panel at the page's right, over it (a modal dialog; the whole screen on a phone),
 * opened by its button beside the table it adds to: the table stays in view, not pushed below a
 * stack of forms. `content` is the form (with its own Close button calling `close`); the focus
 * goes to `focus` or the first field, Escape closes it, and `onClose` runs however it closed.
 */
export function formPanel(title: string, content: readonly Node[], onClose?: () => void): FormPanel {
  const headingId = uniqueId('panel-title');
  const heading = h('h2', { id: headingId }, title);
  const element = h('dialog', { class: 'panel', 'aria-labelledby': headingId }, heading, ...content);
  const opener = h('button', { type: 'button', class: 'add-price' }, title);
  const panel: FormPanel = {
    element,
    opener,
    heading,
    open(focus) {
      element.showModal();
      (focus ?? element.querySelector<HTMLElement>('input, select, textarea'))?.focus();
    },
    close() {
      element.close();
    },
  };
  opener.addEventListener('click', () => panel.open());
  if (onClose !== undefined) element.addEventListener('close', onClose);
  return panel;
}
