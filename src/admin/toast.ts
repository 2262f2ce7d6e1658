import { replaceChildren } from './dom.js';
import { SUCCESS_SHOWN_MS } from './outcome-timing.js';

/** How an outcome is said: on screen and to screen readers, to screen readers only, or as a failure that stays until dismissed. */
export type OutcomeKind = 'success' | 'quiet' | 'failure';

export interface Toast {
  show(message: string, failure: boolean): void;
  /** The next view is the one the action led to (a set started, then opened): the outcome goes along. */
  carryToNextView(): void;
  /** A new view opens: an outcome of the last one goes, unless it was carried. */
  viewChanged(): void;
}

/**
 * The box at the bottom right (`index.html`'s #toast) with the last action's outcome. A success
 * closes by itself after `SUCCESS_SHOWN_MS`, not while the focus is in it (a keyboard's reader
 * is at its Dismiss); a failure stays until Dismiss. Either belongs to the view it was made
 * in: moving to another view closes it.
 */
export function toast(box: HTMLElement, text: HTMLElement, dismiss: HTMLElement): Toast {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let failure = false;
  let carried = false;
  let held = false;
  const hide = () => {
    clearTimeout(timer);
    box.hidden = true;
  };
  const arm = () => {
    clearTimeout(timer);
    if (!failure && !held && !box.hidden) timer = setTimeout(hide, SUCCESS_SHOWN_MS);
  };
  const hold = (on: boolean) => () => {
    held = on;
    if (on) clearTimeout(timer);
    else arm();
  };
  box.addEventListener('focusin', hold(true));
  box.addEventListener('focusout', hold(false));
  dismiss.addEventListener('click', hide);
  return {
    show(message, failed) {
      replaceChildren(text, message);
      failure = failed;
      box.classList.toggle('error', failed);
      box.hidden = false;
      arm();
    },
    carryToNextView() {
      carried = true;
    },
    viewChanged() {
      if (!carried) hide();
      carried = false;
    },
  };
}
