import type { Pricebook } from '@pricebook/client/browser';
import { adminClient } from './admin-client.js';
import { h, replaceChildren } from './dom.js';
import { errorMessage } from './error-message.js';
import { isAbort } from './forms.js';
import { forgetToken, storedToken } from './session.js';
import type { View, ViewContext } from './view.js';
import { customerView } from './views/customer.js';
import { customersView } from './views/customers.js';
import { importsView } from './views/imports.js';
import { priceListView } from './views/price-list.js';
import { priceListsView } from './views/price-lists.js';
import { signInView } from './views/sign-in.js';
import { webhooksView } from './views/webhooks.js';

interface Route {
  pattern: RegExp;
  view: View;
  /** The main-menu entry marked current. */
  nav?: string;
  /** Shown without a token (only the sign-in). */
  signedOut?: boolean;
}

/** Hash routes: the page is one file, and a record id in the hash never leaves the browser. */
const ROUTES: readonly Route[] = [
  { pattern: /^#\/sign-in$/, view: signInView, signedOut: true },
  { pattern: /^#\/customers$/, view: customersView, nav: 'customers' },
  { pattern: /^#\/customers\/([1-9]\d*)$/, view: customerView, nav: 'customers' },
  { pattern: /^#\/price-lists$/, view: priceListsView, nav: 'price-lists' },
  { pattern: /^#\/price-lists\/([1-9]\d*)$/, view: priceListView, nav: 'price-lists' },
  { pattern: /^#\/imports$/, view: importsView, nav: 'imports' },
  { pattern: /^#\/webhooks$/, view: webhooksView, nav: 'webhooks' },
];
const HOME = '#/customers';
const SIGN_IN = '#/sign-in';

const main = element('main');
const nav = element('nav');
const wait = element('wait');
const announcer = element('announcer');
let current: AbortController | undefined;
/** Where to go once signed in (the page asked for before signing in). */
let afterSignIn = HOME;
/** Said once the sign-in form shows (why the user is there). */
let signInMessage: string | undefined;

function showRateLimitWait(seconds: number): void {
  wait.hidden = seconds === 0;
  replaceChildren(wait, seconds === 0 ? '' : `The API's rate limit asks for a pause of ${seconds} s: the action goes on by itself.`);
}

function signOut(message?: string): void {
  forgetToken();
  signInMessage = message;
  if (location.hash === SIGN_IN) void render();
  else location.hash = SIGN_IN;
}

function announce(message: string): void {
  replaceChildren(announcer, message);
}

async function render(): Promise<void> {
  current?.abort();
  const controller = new AbortController();
  current = controller;
  const hash = location.hash === '' ? HOME : location.hash;
  const signedIn = storedToken() !== undefined;
  const route = ROUTES.find((candidate) => candidate.pattern.test(hash));
  if (!signedIn && route?.signedOut !== true) {
    afterSignIn = route === undefined ? HOME : hash;
    location.replace(SIGN_IN);
    return;
  }
  if (signedIn && route?.signedOut === true) {
    location.replace(afterSignIn);
    afterSignIn = HOME;
    return;
  }
  nav.hidden = !signedIn;
  for (const link of nav.querySelectorAll<HTMLAnchorElement>('a[data-nav]')) {
    if (link.dataset.nav === route?.nav) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
  replaceChildren(main);
  // A client per view: moving on aborts its requests and waits.
  let api: Pricebook | undefined;
  const context: ViewContext = {
    get api() {
      api ??= adminClient({
        token: storedToken() ?? '',
        signal: controller.signal,
        onRateLimitWait: showRateLimitWait,
        onUnauthenticated: () => signOut('The API refused the token (revoked, or mistyped). Sign in again.'),
      });
      return api;
    },
    withToken: (token) => adminClient({ token, signal: controller.signal, onRateLimitWait: showRateLimitWait }),
    main,
    signal: controller.signal,
    heading: (text) => {
      const heading = h('h1', { tabindex: -1 }, text);
      main.prepend(heading);
      document.title = `${text} · Pricebook admin`;
      heading.focus();
      return heading;
    },
    announce,
    navigate: (target) => {
      location.hash = target;
    },
    signOut,
    notice: route?.signedOut === true ? signInMessage : undefined,
    afterSignIn,
  };
  if (route?.signedOut === true) signInMessage = undefined;
  if (route === undefined) {
    context.heading('Page not found');
    main.append(h('p', {}, h('a', { href: HOME }, 'Go to the customers')));
    return;
  }
  const captures = route.pattern.exec(hash)?.slice(1) ?? [];
  try {
    await route.view(context, ...captures);
  } catch (error) {
    if (isAbort(error) || controller.signal.aborted) return;
    main.append(h('div', { class: 'alert', role: 'alert' }, h('p', {}, errorMessage(error))));
  }
}

element('sign-out').addEventListener('click', () => {
  signOut();
  announce('Signed out');
});
// The skip link must not become a route.
element('skip-link').addEventListener('click', (event) => {
  event.preventDefault();
  main.focus();
});
window.addEventListener('hashchange', () => void render());
void render();

function element(id: string): HTMLElement {
  const found = document.getElementById(id);
  if (found === null) throw new Error(`index.html has no #${id}`);
  return found;
}
