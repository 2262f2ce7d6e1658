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
